import { accountMessages, passwordMessages } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { errorBody } from '../../../../test/fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { sessionStore } from '../../../lib/session-store.ts';

const STRONG = 'Correct-Horse9';

/** Signed out: boot finds no session. */
function publicServer(routes: Parameters<typeof mockServer>[0]) {
  sessionStore.endBoot('');
  return mockServer({
    'GET /auth/current_token': () => json(401, errorBody(401, 'invalid_token', 'You must be logged in')),
    ...routes,
  });
}

afterEach(() => vi.restoreAllMocks());

describe('forgot password (spec 1 §2 /forgot-password)', () => {
  it('is linked from the login page', async () => {
    publicServer({});
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });

  it.each([
    ['a success', () => noContent()],
    ['invalid_email', () => json(422, errorBody(422, 'invalid_email', 'No account with that email'))],
  ])('answers %s with the same neutral sentence', async (_, answer) => {
    const server = publicServer({ 'POST /auth/password/resets/new': answer });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'Ada@Example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Instructions' }));
    expect(await screen.findByText(accountMessages.resetRequested)).toBeInTheDocument();
    const [call] = server.callsTo('POST', '/auth/password/resets/new');
    expect(call?.body).toEqual({ email: 'ada@example.com', origin: 'app' });
    expect(call?.headers.Authorization ?? call?.headers.authorization).toBeUndefined();
  });

  it('shows other failures with the spec wording, and checks the address first', async () => {
    const server = publicServer({
      'POST /auth/password/resets/new': () =>
        json(429, errorBody(429, 'rate_limited', 'Too many password reset requests')),
    });
    renderApp('/forgot-password');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send Reset Instructions' }));
    expect(await screen.findByText('Email must not be empty')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Send Reset Instructions' }));
    expect(await screen.findByText('Must provide valid email')).toBeInTheDocument();
    expect(server.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Instructions' }));
    expect(
      await screen.findByText(
        'Error! Unable to submit request to reset your password: Too many password reset requests',
      ),
    ).toBeInTheDocument();
  });
});

describe('password update (spec 1 §2 /password/update/{challengeId}/{verificationCode})', () => {
  it('sends the new password with the link, after the spec checks', async () => {
    const server = publicServer({ 'POST /auth/verifications': () => noContent() });
    renderApp('/password/update/ch-1/code-1');
    const user = userEvent.setup();
    const submit = await screen.findByRole('button', { name: 'Reset Password' });
    expect(submit).toBeDisabled();
    await user.type(screen.getByLabelText('New Password'), STRONG);
    await user.type(screen.getByLabelText('Confirm New Password'), 'Other-Horse9');
    await user.click(submit);
    expect(await screen.findByText(passwordMessages.mismatch)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/verifications')).toHaveLength(0);
    await user.clear(screen.getByLabelText('Confirm New Password'));
    await user.type(screen.getByLabelText('Confirm New Password'), STRONG);
    await user.click(submit);
    expect(await screen.findByText(accountMessages.passwordReset)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(server.callsTo('POST', '/auth/verifications')[0]?.body).toEqual({
      type: 'password_reset_challenge',
      challenge_id: 'ch-1',
      verification_code: 'code-1',
      password: STRONG,
    });
  });

  it('shows why a used or expired link is refused, and offers a new one', async () => {
    publicServer({
      'POST /auth/verifications': () =>
        json(
          422,
          errorBody(
            422,
            'invalid_verification',
            'This password reset link is invalid, has expired or was already used.',
          ),
        ),
    });
    renderApp('/password/update/ch-1/code-1');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New Password'), STRONG);
    await user.type(screen.getByLabelText('Confirm New Password'), STRONG);
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(
      await screen.findByText('This password reset link is invalid, has expired or was already used.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute(
        'href',
        '/forgot-password',
      ),
    );
  });
});
