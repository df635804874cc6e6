import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { errorBody, userHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { VERIFY_FAILED } from './verify-challenge.tsx';

describe('email verification link', () => {
  it('submits the challenge automatically and goes Home once verified', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1': [() => json(200, userHal({ verified: false })), () => json(200, userHal())],
      'POST /auth/verifications': () => noContent(),
    });
    const { router } = renderApp('/verify/chal-7/code-123');

    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(server.callsTo('POST', '/auth/verifications')).toHaveLength(1);
    expect(server.callsTo('POST', '/auth/verifications')[0]?.body).toEqual({
      type: 'email_verification_challenge',
      challenge_id: 'chal-7',
      verification_code: 'code-123',
    });
  });

  it('shows the failure message with a Resend form', async () => {
    signIn();
    const server = mockServer({
      'GET /auth/users/user-1': () => json(200, userHal({ verified: false })),
      'POST /auth/verifications': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'Verification code is invalid or expired')),
      'POST /auth/users/user-1/email_verification_challenges': () => noContent(),
    });
    renderApp('/verify/chal-7/expired');

    expect(await screen.findByText(VERIFY_FAILED)).toBeInTheDocument();
    expect(VERIFY_FAILED).toBe(
      'Failed to verify your email, the token may have expired. Resend the verification email and try again.',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Success! You should receive an email shortly.')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/users/user-1/email_verification_challenges')).toHaveLength(1);
  });

  it('sends an unverified user from console pages to /verify', async () => {
    signIn();
    mockServer({ ...consoleRoutes({ user: userHal({ verified: false }) }) });
    const { router } = renderApp('/environments');
    expect(await screen.findByRole('heading', { name: 'Verify your email' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/verify');
  });
});
