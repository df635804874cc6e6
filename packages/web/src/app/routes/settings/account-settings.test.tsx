import { accountMessages, passwordMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, HOST, tokenHal, userHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { clearToasts } from '../../../components/ui/toast.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

const STRONG = 'Correct-Horse9';

function elevate() {
  sessionStore.setElevatedToken(
    fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
  );
}

function challengeHal(id: string, email: string) {
  return {
    _type: 'email_verification_challenge',
    id,
    email,
    expires_at: '2030-01-01T00:00:00.000Z',
    created_at: '2029-12-31T00:00:00.000Z',
    updated_at: '2029-12-31T00:00:00.000Z',
    _links: {
      self: { href: `${HOST}/auth/email_verification_challenges/${id}` },
      user: { href: `${HOST}/auth/users/user-1` },
    },
  };
}

/** The security page's neighbours (2FA, sessions) answer empty; each test adds what it checks. */
function securityServer(routes: Parameters<typeof mockServer>[0] = {}) {
  return mockServer({
    ...consoleRoutes(),
    'GET /auth/users/user-1/sessions': () => json(200, collection('sessions', [])),
    'GET /auth/users/user-1/u2f_devices': () => json(200, collection('u2f_devices', [])),
    'GET /auth/users/user-1/email_verification_challenges': () =>
      json(200, collection('email_verification_challenges', [])),
    ...routes,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('settings sidebar, Account Settings', () => {
  it('lists Profile, Security and SSH Keys', async () => {
    signIn();
    securityServer();
    renderApp('/settings/profile');
    const nav = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('heading', { name: 'Account Settings' })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/settings/profile');
    expect(within(nav).getByRole('link', { name: 'Security' })).toHaveAttribute('href', '/settings/security');
    expect(within(nav).getByRole('link', { name: 'SSH Keys' })).toHaveAttribute('href', '/settings/ssh');
  });
});

describe('profile (spec 1 §2 /settings/profile)', () => {
  it('renames the user with PATCH {name} and the spec toast; symbols are refused', async () => {
    signIn();
    const server = securityServer({
      'PATCH /auth/users/user-1': (call) =>
        json(200, userHal({ name: (call.body as { name: string }).name })),
    });
    renderApp('/settings/profile');
    const user = userEvent.setup();
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Ada Lovelace');
    await user.clear(name);
    await user.type(name, 'Ada <script>');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Cannot have symbols in name')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/users/user-1')).toHaveLength(0);
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(accountMessages.nameUpdated)).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/users/user-1')[0]?.body).toEqual({ name: 'Ada King' });
  });
});

describe('security settings (spec 1 §2 /settings/security)', () => {
  it('asks for the password again without a valid elevated token', async () => {
    signIn();
    securityServer();
    const { router } = renderApp('/settings/security');
    await waitFor(() => expect(router.state.location.pathname).toBe('/elevate'));
    expect(router.state.location.search).toBe('?redirect=%2Fsettings%2Fsecurity');
  });

  it('changes the password with the elevated token, and checks the confirmation first', async () => {
    signIn();
    elevate();
    const server = securityServer({ 'PATCH /auth/users/user-1': () => json(200, userHal()) });
    renderApp('/settings/security');
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Change Password' }));
    const submit = form.getByRole('button', { name: 'Change Password' });
    expect(submit).toBeDisabled();
    await user.type(form.getByLabelText('New Password'), STRONG);
    await user.type(form.getByLabelText('Confirm New Password'), 'Correct-Horse8');
    await user.click(submit);
    expect(await form.findByText(passwordMessages.mismatch)).toBeInTheDocument();
    await user.clear(form.getByLabelText('New Password'));
    await user.type(form.getByLabelText('New Password'), 'short');
    await user.click(submit);
    expect(await form.findAllByText(passwordMessages.tooShort)).not.toHaveLength(0);
    expect(server.callsTo('PATCH', '/auth/users/user-1')).toHaveLength(0);

    await user.clear(form.getByLabelText('New Password'));
    await user.type(form.getByLabelText('New Password'), STRONG);
    await user.clear(form.getByLabelText('Confirm New Password'));
    await user.type(form.getByLabelText('Confirm New Password'), STRONG);
    await user.click(submit);
    expect(
      await form.findByText(`${accountMessages.passwordChanged}${accountMessages.otherSessionsLoggedOut}`),
    ).toBeInTheDocument();
    const [call] = server.callsTo('PATCH', '/auth/users/user-1');
    expect(call?.body).toEqual({ type: 'update-password', password: STRONG });
    expect(call?.headers.Authorization ?? call?.headers.authorization).toContain(
      sessionStore.getState().elevatedToken?.accessToken ?? 'missing',
    );
  });

  it('shows the server message when the change is refused', async () => {
    signIn();
    elevate();
    securityServer({
      'PATCH /auth/users/user-1': () =>
        json(403, errorBody(403, 'access_denied', 'This change needs an elevated token')),
    });
    renderApp('/settings/security');
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Change Password' }));
    await user.type(form.getByLabelText('New Password'), STRONG);
    await user.type(form.getByLabelText('Confirm New Password'), STRONG);
    await user.click(form.getByRole('button', { name: 'Change Password' }));
    expect(await form.findByText('This change needs an elevated token')).toBeInTheDocument();
  });

  it('asks for a new email, lists the pending changes and cancels one', async () => {
    signIn();
    elevate();
    let pending = [challengeHal('ch-1', 'old-pending@example.com')];
    const server = securityServer({
      'GET /auth/users/user-1/email_verification_challenges': () =>
        json(200, collection('email_verification_challenges', pending)),
      'POST /auth/users/user-1/email_verification_challenges': (call) => {
        pending = [...pending, challengeHal('ch-2', (call.body as { email: string }).email)];
        return noContent();
      },
      'DELETE /auth/email_verification_challenges/ch-1': () => {
        pending = pending.filter((challenge) => challenge.id !== 'ch-1');
        return noContent();
      },
    });
    renderApp('/settings/security');
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Change Email' }));
    const submit = form.getByRole('button', { name: 'Change Email' });
    expect(submit).toBeDisabled();
    await user.type(form.getByLabelText('New Email'), 'not-an-email');
    await user.click(submit);
    expect(await form.findByText('Must provide valid email')).toBeInTheDocument();
    await user.clear(form.getByLabelText('New Email'));
    await user.type(form.getByLabelText('New Email'), 'New@Example.com');
    await user.click(submit);
    expect(
      await form.findByText(accountMessages.emailChangeRequested('new@example.com')),
    ).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/users/user-1/email_verification_challenges')[0]?.body).toEqual({
      email: 'new@example.com',
      origin: 'app',
    });
    const list = within(screen.getByRole('region', { name: 'Pending email changes' }));
    expect(await list.findByText(/new@example\.com/)).toBeInTheDocument();
    await user.click(list.getByRole('button', { name: 'Cancel change to old-pending@example.com' }));
    await waitFor(() => expect(list.queryByText(/old-pending@example\.com/)).not.toBeInTheDocument());
    expect(server.callsTo('DELETE', '/auth/email_verification_challenges/ch-1')).toHaveLength(1);
  });

  it('says when no change is pending', async () => {
    signIn();
    elevate();
    securityServer();
    renderApp('/settings/security');
    expect(await screen.findByText('No pending requests')).toBeInTheDocument();
  });
});
