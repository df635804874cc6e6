import { personalAccessTokenMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, HOST, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

const SECRET = 'eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6Im1hbmFnZSJ9.personal-token-signature';

function tokenResource(
  id: string,
  name: string,
  options: { scope?: string; lastUsedAt?: string | null; expired?: boolean } = {},
) {
  return {
    _type: 'personal_access_token',
    id,
    name,
    scope: options.scope ?? 'manage',
    created_at: '2026-01-02T03:04:05.000Z',
    expires_at: options.expired ? '2026-01-09T03:04:05.000Z' : '2027-01-02T03:04:05.000Z',
    last_used_at: options.lastUsedAt ?? null,
    expired: options.expired ?? false,
    _links: { self: { href: `${HOST}/auth/tokens/${id}` }, user: { href: `${HOST}/auth/users/user-1` } },
  };
}

function elevate() {
  sessionStore.setElevatedToken(
    fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
  );
}

describe('/settings/tokens', () => {
  it('asks for reauthentication first', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(200, collection('personal_access_tokens', [])),
    });
    const { router } = renderApp('/settings/tokens');
    await waitFor(() => expect(router.state.location.pathname).toBe('/elevate'));
    expect(router.state.location.search).toContain('redirect=%2Fsettings%2Ftokens');
  });

  it('is listed under Account Settings', async () => {
    signIn();
    elevate();
    mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(200, collection('personal_access_tokens', [])),
    });
    renderApp('/settings/tokens');
    const nav = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Access Tokens' })).toHaveAttribute(
      'href',
      '/settings/tokens',
    );
    expect(await screen.findByText(personalAccessTokenMessages.empty)).toBeInTheDocument();
  });

  it('lists each token with its scope, expiry and last use', async () => {
    signIn();
    elevate();
    mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(
          200,
          collection('personal_access_tokens', [
            tokenResource('t1', 'GitHub Actions', { lastUsedAt: '2026-02-03T04:05:06.000Z' }),
            tokenResource('t2', 'Old laptop', { scope: 'read', expired: true }),
          ]),
        ),
    });
    renderApp('/settings/tokens');
    const ci = (await screen.findByText('GitHub Actions')).closest('tr') as HTMLElement;
    expect(within(ci).getByText('Manage (read and write)')).toBeInTheDocument();
    expect(within(ci).getByText(new Date('2026-02-03T04:05:06.000Z').toLocaleString())).toBeInTheDocument();
    const laptop = screen.getByText('Old laptop').closest('tr') as HTMLElement;
    expect(within(laptop).getByText('Read only')).toBeInTheDocument();
    expect(within(laptop).getByText('Expired')).toBeInTheDocument();
    expect(within(laptop).getByText('Never')).toBeInTheDocument();
  });

  it('generates a token with the elevated token and shows it once, with a copy button and a warning', async () => {
    signIn();
    elevate();
    const tokens: unknown[] = [];
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(200, collection('personal_access_tokens', tokens)),
      'POST /auth/users/user-1/personal_access_tokens': [
        () => json(422, errorBody(422, 'unprocessable_entity', personalAccessTokenMessages.tooMany)),
        () => {
          tokens.push(tokenResource('t9', 'Deploy bot', { scope: 'read' }));
          return json(201, { ...tokenResource('t9', 'Deploy bot', { scope: 'read' }), access_token: SECRET });
        },
      ],
    });
    renderApp('/settings/tokens');
    const user = userEvent.setup();
    await screen.findByText(personalAccessTokenMessages.empty);
    await user.type(screen.getByLabelText('Name'), 'Deploy bot');
    await user.selectOptions(screen.getByLabelText('Scope'), 'read');
    await user.selectOptions(screen.getByLabelText('Expiration'), '90');
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    // The server's refusal, in its words.
    expect(await screen.findByText(personalAccessTokenMessages.tooMany)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    expect(await screen.findByText(SECRET)).toBeInTheDocument();
    expect(screen.getByText(personalAccessTokenMessages.shownOnce)).toBeInTheDocument();
    expect(screen.getByText(personalAccessTokenMessages.created)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the token' })).toBeInTheDocument();
    const posts = server.callsTo('POST', '/auth/users/user-1/personal_access_tokens');
    expect(posts[1]?.body).toEqual({ name: 'Deploy bot', scope: 'read', expires_in_days: 90 });
    expect(posts[1]?.headers.Authorization).toBe(
      `Bearer ${sessionStore.getState().elevatedToken?.accessToken}`,
    );
    // Listed without the token; Done forgets it for good.
    const row = (await screen.findByRole('cell', { name: 'Deploy bot' })).closest('tr') as HTMLElement;
    expect(row).not.toHaveTextContent(SECRET);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it('checks the form before sending', async () => {
    signIn();
    elevate();
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(200, collection('personal_access_tokens', [])),
    });
    renderApp('/settings/tokens');
    const user = userEvent.setup();
    await screen.findByText(personalAccessTokenMessages.empty);
    await user.click(screen.getByRole('button', { name: 'Generate token' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/users/user-1/personal_access_tokens')).toHaveLength(0);
  });

  it('revokes a token after confirmation', async () => {
    signIn();
    elevate();
    let tokens = [tokenResource('t1', 'GitHub Actions')];
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/personal_access_tokens': () =>
        json(200, collection('personal_access_tokens', tokens)),
      'DELETE /auth/tokens/t1': () => {
        tokens = [];
        return noContent();
      },
    });
    renderApp('/settings/tokens');
    const user = userEvent.setup();
    const row = (await screen.findByText('GitHub Actions')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Revoke GitHub Actions' }));
    expect(server.callsTo('DELETE', '/auth/tokens/t1')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm revoke GitHub Actions' }));
    expect(await screen.findByText(personalAccessTokenMessages.empty)).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/tokens/t1')).toHaveLength(1);
    expect(screen.getByText(personalAccessTokenMessages.revoked)).toBeInTheDocument();
  });
});
