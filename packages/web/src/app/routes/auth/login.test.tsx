import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { ALREADY_LOGGED_IN } from '../../../features/session/components/already-logged-in.tsx';
import {
  LOCKED_OTP_HINT,
  OTP_REQUIRED_WARNING,
} from '../../../features/session/components/credentials-form.tsx';
import { writePersisted } from '../../../lib/persisted-state.ts';
import { type SessionState, sessionStore } from '../../../lib/session-store.ts';

async function fillLogin(email: string, password: string) {
  const user = userEvent.setup();
  const submit = await screen.findByRole('button', { name: 'Log In' });
  if (email) await user.type(screen.getByLabelText('Email'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  await user.click(submit);
  return user;
}

describe('login', () => {
  it('shows its form before the session check answers, then follows the session it finds', async () => {
    // The console as it starts: the session check has left and not answered yet.
    const booting: SessionState = { ...sessionStore.getState(), phase: 'booting' };
    const realState = sessionStore.getState;
    let checking = true;
    vi.spyOn(sessionStore, 'getState').mockImplementation(() => (checking ? booting : realState()));
    let answer: (response: Response) => void = () => {};
    mockServer({
      'GET /auth/current_token': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/login');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading Berth' })).not.toBeInTheDocument();

    // The check's answer signs the session in; from then on the store says so.
    const signIn = sessionStore.signIn;
    vi.spyOn(sessionStore, 'signIn').mockImplementation((token) => {
      checking = false;
      signIn(token);
    });
    answer(json(200, tokenHal()));
    expect(await screen.findByText(ALREADY_LOGGED_IN)).toBeInTheDocument();
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
  });

  it('shows the validation messages of core', async () => {
    mockServer({});
    renderApp('/login');
    await fillLogin('', '');
    expect(await screen.findByText('Email must not be empty')).toBeInTheDocument();
    expect(screen.getByText('Password must not be empty')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByText('Must provide valid email')).toBeInTheDocument();
  });

  it("shows the server's message when the credentials are wrong", async () => {
    mockServer({
      'POST /auth/tokens': () =>
        json(401, errorBody(401, 'invalid_credentials', 'Invalid email or password')),
    });
    renderApp('/login');
    await fillLogin('ada@example.com', 'wrong password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(sessionStore.getState().phase).toBe('anonymous');
  });

  it('reveals the 2FA field with the warning, then logs in without an elevated token', async () => {
    const server = mockServer({
      'POST /auth/tokens': [
        () => json(401, errorBody(401, 'otp_token_required', 'OTP token required')),
        () => json(201, tokenHal()),
      ],
      ...consoleRoutes(),
    });
    renderApp('/login');
    const user = await fillLogin('ada@example.com', 'Correct horse 1');

    expect(await screen.findByText(OTP_REQUIRED_WARNING)).toBeInTheDocument();
    await user.type(screen.getByLabelText('2FA Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    // Home, where a signed-in user with an organization lands (issue 38).
    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    const tokenCalls = server.callsTo('POST', '/auth/tokens');
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[1]?.body).toMatchObject({ otp_token: '123456', scope: 'manage' });
  });

  it('offers the 2FA field when the account is locked, and logs in with the code', async () => {
    const locked = 'Too many failed login attempts. Please wait 15 minutes and try again.';
    const server = mockServer({
      'POST /auth/tokens': [
        () => json(429, errorBody(429, 'rate_limited', locked)),
        () => json(201, tokenHal()),
      ],
      ...consoleRoutes(),
    });
    renderApp('/login');
    const user = await fillLogin('ada@example.com', 'Correct horse 1');

    expect(await screen.findByRole('alert')).toHaveTextContent(locked);
    expect(screen.getByText(LOCKED_OTP_HINT)).toBeInTheDocument();
    expect(screen.queryByText(OTP_REQUIRED_WARNING)).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('2FA Code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Log In' }));

    // Home, where a signed-in user with an organization lands (issue 38).
    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    const tokenCalls = server.callsTo('POST', '/auth/tokens');
    expect(tokenCalls).toHaveLength(2);
    expect(tokenCalls[1]?.body).toMatchObject({ otp_token: '123456', scope: 'manage' });
    expect(tokenCalls[1]?.credentials).toBe('include');
  });

  it('logs in, takes an elevated token without cookies and goes to the remembered page', async () => {
    writePersisted('redirectPath', '/environments?search=prod');
    const server = mockServer({
      'POST /auth/tokens': [
        () => json(201, tokenHal()),
        () => json(201, tokenHal({ id: 'tok-2', scope: 'elevated' })),
      ],
      ...consoleRoutes(),
    });
    const { router } = renderApp('/login');
    await fillLogin('Ada@Example.com', 'Correct horse 1');

    expect(await screen.findByText('No environments exist')).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/environments?search=prod');
    expect(window.localStorage.getItem('redirectPath')).toBeNull();

    const [session, elevated] = server.callsTo('POST', '/auth/tokens');
    expect(session?.body).toEqual({
      username: 'ada@example.com',
      password: 'Correct horse 1',
      otp_token: '',
      expires_in: 43200,
      grant_type: 'password',
      scope: 'manage',
      _source: 'deploy',
    });
    expect(session?.credentials).toBe('include');
    expect(elevated?.body).toMatchObject({ scope: 'elevated', expires_in: 1800, grant_type: 'password' });
    expect(elevated?.credentials).toBe('omit');
    await waitFor(() => expect(sessionStore.getState().elevatedToken?.id).toBe('tok-2'));
  });

  it('tells a signed-in visitor they are already logged in', async () => {
    signIn();
    mockServer(consoleRoutes());
    renderApp('/login');
    expect(await screen.findByText('You are already logged in!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Continue to the dashboard' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('button', { name: 'Log In' })).not.toBeInTheDocument();
  });

  it('sends a signed-out visitor to login and remembers the page', async () => {
    mockServer({});
    const { router } = renderApp('/environments?search=web');
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('redirectPath')).toBe('/environments?search=web');
  });
});
