import { CLI_TOKEN_DURATIONS } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, renderWithProviders } from '../../../../test/render.tsx';
import { CliTokenRequestForm } from '../../../features/cli-tokens/components/cli-token-request-form.tsx';
import { cliTokenLoginUrl } from '../../sso.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('CLI SSO Token (spec 3 "CLI token")', () => {
  it('offers the spec’s lifetimes, a week by default, and asks for the organization', async () => {
    mockServer({});
    renderApp('/sso/cli');
    const form = await screen.findByRole('form', { name: 'CLI SSO Token' });
    const lifetime = within(form).getByRole('combobox', { name: 'Token lifetime' });
    expect(
      within(lifetime)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1 hour', '4 hours', '12 hours', '24 hours', '5 days', '1 week']);
    expect(lifetime).toHaveValue('604800');
    await userEvent.setup().click(within(form).getByRole('button', { name: 'Log in with SSO' }));
    expect(await within(form).findByText('Organization must not be empty')).toBeInTheDocument();
  });

  it('starts the SSO login for the chosen organization and lifetime', async () => {
    const onRequest = vi.fn();
    renderWithProviders(<CliTokenRequestForm organization="org-1" onRequest={onRequest} />);
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Token lifetime' }), '3600');
    await user.click(screen.getByRole('button', { name: 'Log in with SSO' }));
    await waitFor(() => expect(onRequest).toHaveBeenCalledWith('org-1', 3600));
    expect(CLI_TOKEN_DURATIONS.map((option) => option.seconds)).toEqual([
      3600, 14400, 43200, 86400, 432000, 604800,
    ]);
  });

  it('sends the browser to the auth host’s SSO login with landing_page=clitoken, the lifetime and the reader', () => {
    const url = new URL(cliTokenLoginUrl('org-1', 14400));
    expect(`${url.origin}${url.pathname}`).toBe('http://berth.test/auth/organizations/org-1/saml/login');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      landing_page: 'clitoken',
      duration: '14400',
      redirect_uri: 'http://berth.test/sso/cli/read',
    });
  });
});

describe('CLI SSO Token, the reading variant (/sso/cli/read)', () => {
  it('trades the one-time code of the fragment for the token once, and shows it with a copy button', async () => {
    const token = tokenHal({ id: 'tok-cli', lifetime: 3600 });
    const server = mockServer({ 'POST /auth/cli_tokens': () => json(201, token) });
    renderApp('/sso/cli/read#code=one-time-code');
    expect(await screen.findByText(token.access_token)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the CLI token' })).toBeInTheDocument();
    expect(screen.getByText(/It expires/)).toBeInTheDocument();
    const calls = server.callsTo('POST', '/auth/cli_tokens');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ code: 'one-time-code' });
    // The code leaves the address bar (and so the history) at once.
    expect(window.location.hash).toBe('');
  });

  it('says "Failed to fetch token, try again." and fetches again on Retry', async () => {
    let attempts = 0;
    const token = tokenHal({ id: 'tok-cli' });
    mockServer({
      'POST /auth/cli_tokens': () => {
        attempts += 1;
        return attempts === 1
          ? json(503, errorBody(503, 'unavailable', 'The database is unavailable'))
          : json(201, token);
      },
    });
    renderApp('/sso/cli/read#code=one-time-code');
    const failure = await screen.findByRole('alert');
    expect(failure).toHaveTextContent('Failed to fetch token, try again.');
    await userEvent.setup().click(within(failure).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText(token.access_token)).toBeInTheDocument();
    expect(attempts).toBe(2);
  });

  it('fails without a code, asking nothing of the server', async () => {
    const server = mockServer({});
    renderApp('/sso/cli/read');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch token, try again.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/cli_tokens')).toHaveLength(0);
  });
});
