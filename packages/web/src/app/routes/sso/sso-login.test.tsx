import { ssoFailureMessages } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockServer } from '../../../../test/fetch-mock.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { ssoLoginUrl } from '../../sso.ts';

describe('SSO login (spec 1 §2 /sso, /sso/{orgId}; §7)', () => {
  it('is linked from the login page', async () => {
    mockServer({});
    const { router } = renderApp('/login');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Log In with SSO' }));
    // The route's chunk loads before the location changes.
    await waitFor(() => expect(router.state.location.pathname).toBe('/sso'));
    expect(await screen.findByRole('textbox', { name: 'Organization ID or SSO login ID' })).toHaveValue('');
  });

  it('wants an organization before it leaves for the identity provider', async () => {
    mockServer({});
    renderApp('/sso');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Continue with SSO' }));
    expect(await screen.findByText('Organization ID must not be empty')).toBeInTheDocument();
  });

  it('takes the organization (or SSO login ID) from the shortcut login link', async () => {
    mockServer({});
    renderApp('/sso/acme');
    expect(await screen.findByRole('textbox', { name: 'Organization ID or SSO login ID' })).toHaveValue(
      'acme',
    );
  });

  it('goes to the auth host’s SAML login with the failure page as redirect_uri', () => {
    const url = new URL(ssoLoginUrl('acme'));
    expect(`${url.origin}${url.pathname}`).toBe('http://berth.test/auth/organizations/acme/saml/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({ redirect_uri: 'http://berth.test/sso/failure' });
  });

  it('tells a signed-in visitor so, with a way on to the console', async () => {
    signIn();
    mockServer({});
    renderApp('/sso/acme');
    expect(await screen.findByText('You are already logged in!')).toBeInTheDocument();
  });
});

describe('SSO error page (spec 1 §2 /sso/failure?message, §8)', () => {
  it.each(Object.entries(ssoFailureMessages))('explains %s with a Back to Login link', async (code, text) => {
    mockServer({});
    const { router } = renderApp(`/sso/failure?message=${code}`);
    expect(await screen.findByText(text)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to Login' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('reads any other code, or none, as the catch-all', async () => {
    mockServer({});
    renderApp('/sso/failure?message=%3Cscript%3E');
    expect(await screen.findByText(ssoFailureMessages.unknown)).toBeInTheDocument();
    expect(screen.queryByText('<script>')).not.toBeInTheDocument();
  });
});
