import { toastMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, HOST, tokenHal } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { ToastRegion } from '../../../components/ui/toast.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { SessionsSection } from './sessions-section.tsx';

function sessionHal(id: string, current: boolean, userAgent: string) {
  return {
    _type: 'session',
    id,
    scope: 'manage',
    created_at: '2026-01-02T03:04:05.000Z',
    expires_at: '2026-01-02T15:04:05.000Z',
    last_used_at: null,
    user_agent: userAgent,
    ip_address: '203.0.113.7',
    current,
    impersonated: false,
    _links: {
      self: { href: `${HOST}/auth/tokens/${id}` },
      token: { href: `${HOST}/auth/tokens/${id}` },
      user: { href: `${HOST}/auth/users/user-1` },
    },
  };
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:130.0) Gecko/20100101 Firefox/130.0';
const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/129.0.0.0 Safari/537.36';

describe('SessionsSection', () => {
  it('lists sessions, marks this one, and revokes another after confirmation', async () => {
    signIn();
    let sessions = [sessionHal('tok-1', true, FIREFOX), sessionHal('tok-2', false, CHROME)];
    const server = mockServer({
      'GET /auth/users/user-1/sessions': () => json(200, collection('sessions', sessions)),
      'DELETE /auth/tokens/tok-2': () => {
        sessions = sessions.slice(0, 1);
        return noContent();
      },
    });
    renderWithProviders(<SessionsSection />);
    const user = userEvent.setup();
    expect(await screen.findByText('(this session)')).toBeInTheDocument();
    expect(screen.getByText(/Firefox\/130.0 on Linux/)).toBeInTheDocument();
    const row = screen.getByText(/Chrome\/129.0.0.0 on Mac OS X/).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: /Revoke session/ }));
    await user.click(screen.getByRole('button', { name: 'Confirm revoke' }));
    await waitFor(() => expect(screen.queryByText(/Chrome/)).not.toBeInTheDocument());
    expect(server.callsTo('DELETE', '/auth/tokens/tok-2')).toHaveLength(1);
    // Only other sessions can be revoked here.
    expect(screen.queryByRole('button', { name: /Revoke session/ })).not.toBeInTheDocument();
  });

  it('logs out other sessions with the elevated token, keeping this session’s tokens', async () => {
    signIn();
    sessionStore.setElevatedToken(
      fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
    );
    const server = mockServer({
      'GET /auth/users/user-1/sessions': [
        () =>
          json(
            200,
            collection('sessions', [sessionHal('tok-1', true, FIREFOX), sessionHal('tok-2', false, CHROME)]),
          ),
        () => json(200, collection('sessions', [sessionHal('tok-1', true, FIREFOX)])),
      ],
      'POST /auth/tokens/revoke_all_accessible': () => noContent(),
    });
    renderWithProviders(
      <>
        <SessionsSection />
        <ToastRegion />
      </>,
    );
    const user = userEvent.setup();
    await screen.findByText(/Chrome/);
    await user.click(screen.getByRole('button', { name: 'Log out other sessions' }));
    expect(await screen.findByText(toastMessages.otherSessionsLoggedOut)).toBeInTheDocument();
    const [call] = server.callsTo('POST', '/auth/tokens/revoke_all_accessible');
    expect(call?.body).toEqual({ except_tokens: [`${HOST}/auth/tokens/tok-1`, `${HOST}/auth/tokens/tok-e`] });
    expect(call?.headers.Authorization).toBe(`Bearer ${sessionStore.getState().elevatedToken?.accessToken}`);
    await waitFor(() => expect(screen.queryByText(/Chrome/)).not.toBeInTheDocument());
  });

  it('sends the user to reauthenticate first without an elevated token', async () => {
    signIn();
    mockServer({ 'GET /auth/users/user-1/sessions': () => json(200, collection('sessions', [])) });
    renderWithProviders(<SessionsSection />);
    const link = await screen.findByRole('link', { name: 'Log out other sessions' });
    expect(link).toHaveAttribute('href', '/elevate?redirect=%2Fsettings%2Fsecurity');
  });
});
