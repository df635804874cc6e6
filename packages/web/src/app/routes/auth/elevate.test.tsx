import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { sessionStore } from '../../../lib/session-store.ts';

describe('elevation', () => {
  it('shows the email read-only, asks for 2FA when required and returns to the redirect', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes(),
      'POST /auth/tokens': [
        // No sudo window open on this session (issue 41): the form asks.
        () => json(403, errorBody(403, 'access_denied', 'Re-enter your credentials to continue')),
        () => json(401, errorBody(401, 'otp_token_required', 'OTP token required')),
        () => json(201, tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
      ],
    });
    const { router } = renderApp('/elevate?redirect=%2Fenvironments');
    const user = userEvent.setup();

    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveAttribute('readonly');
    await user.type(screen.getByLabelText('Password'), 'Correct horse 1');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('You must enter your 2FA token to continue')).toBeInTheDocument();
    await user.type(screen.getByLabelText('2FA Code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/environments'));
    const [windowCall, ...calls] = server.callsTo('POST', '/auth/tokens');
    expect(windowCall).toMatchObject({
      body: { grant_type: 'session_elevation', scope: 'elevated' },
      credentials: 'include',
    });
    expect(calls[1]?.body).toMatchObject({
      username: 'ada@example.com',
      scope: 'elevated',
      expires_in: 1800,
      otp_token: '654321',
    });
    expect(calls.every((call) => call.credentials === 'omit')).toBe(true);
    expect(sessionStore.getState().elevatedToken?.id).toBe('tok-e');
  });

  it('goes straight on, without the form, when the session is still in its sudo window', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes(),
      'POST /auth/tokens': () => json(201, tokenHal({ id: 'tok-w', scope: 'elevated', lifetime: 600 })),
    });
    const { router } = renderApp('/elevate?redirect=%2Fenvironments');

    await waitFor(() => expect(router.state.location.pathname).toBe('/environments'));
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    const calls = server.callsTo('POST', '/auth/tokens');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ grant_type: 'session_elevation', scope: 'elevated', expires_in: 1800 });
    expect(calls[0]?.headers.Authorization).toMatch(/^Bearer /);
    expect(sessionStore.getState().elevatedToken?.id).toBe('tok-w');
  });
});
