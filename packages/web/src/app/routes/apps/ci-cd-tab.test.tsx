import {
  CI_CREDENTIAL_HELPER,
  DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
  personalAccessTokenMessages,
} from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, HOST, stackHal, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

// Issue 35: the CI/CD tab gives the app's exact remote and push commands, and makes a token for CI.

const REMOTE = 'http://berth.test/git/production/shop.git';
const SECRET = 'eyJhbGciOiJIUzI1NiJ9.eyJzY29wZSI6Im1hbmFnZSJ9.ci-token-signature';

function appConsole(runtime: 'docker' | 'sim', gitRepo: string) {
  signIn();
  return mockServer({
    ...consoleRoutes({
      stacks: [{ ...stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }), runtime }],
      environments: [environmentHal({ id: '10', handle: 'production' })],
    }),
    'GET /api/apps/1': () =>
      json(
        200,
        appResourceFixture({
          id: '1',
          handle: 'shop',
          git_repo: gitRepo,
          _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
        }),
      ),
    'GET /api/apps/1/deployments': () => json(200, collection('deployments', [])),
    'GET /api/apps/1/services': () => json(200, collection('services', [])),
    'GET /api/costs/org-1/services': () => json(200, collection('costs', [])),
    'GET /api/costs/org-1/apps': () => json(200, collection('costs', [])),
    'POST /auth/users/user-1/personal_access_tokens': (call) =>
      json(201, {
        _type: 'personal_access_token',
        id: 't7',
        name: (call.body as { name: string }).name,
        scope: 'manage',
        created_at: '2026-01-02T03:04:05.000Z',
        expires_at: '2026-02-01T03:04:05.000Z',
        last_used_at: null,
        expired: false,
        access_token: SECRET,
        _links: { self: { href: `${HOST}/auth/tokens/t7` }, user: { href: `${HOST}/auth/users/user-1` } },
      }),
  });
}

describe('app CI/CD tab', () => {
  it('gives the exact remote, the push commands and the CI command of an app on a docker stack', async () => {
    appConsole('docker', REMOTE);
    renderApp('/apps/1/ci-cd');
    const remote = await screen.findByRole('region', { name: 'Git remote' });
    expect(within(remote).getByText(REMOTE)).toBeInTheDocument();
    const byHand = screen.getByRole('region', { name: 'Push from your machine' });
    expect(byHand.querySelector('code')?.textContent).toBe(
      `git remote add berth ${REMOTE}\ngit push berth main`,
    );
    const ci = screen.getByRole('region', { name: 'Push from CI' });
    expect(
      within(ci).getByText(
        `git -c credential.helper= -c credential.helper='${CI_CREDENTIAL_HELPER}' push ${REMOTE} HEAD:refs/heads/main`,
      ),
    ).toBeInTheDocument();
    expect(within(ci).getByRole('button', { name: 'Copy the CI push command' })).toBeInTheDocument();
    expect(
      screen.getByText(/any user name and an access token with scope manage as the password/),
    ).toBeInTheDocument();
    // The old advice to call the sign-in API by hand is gone.
    expect(screen.queryByText(/POST \/auth\/tokens/)).not.toBeInTheDocument();
  });

  it('makes a token for CI, named for the app, with the password entered again, and shows it once', async () => {
    const server = appConsole('docker', REMOTE);
    sessionStore.setElevatedToken(
      fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
    );
    renderApp('/apps/1/ci-cd');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Generate a token for CI' }));
    expect(await screen.findByText(SECRET)).toBeInTheDocument();
    expect(screen.getByText(personalAccessTokenMessages.shownOnce)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the token' })).toBeInTheDocument();
    expect(screen.getByText(/Keep it in your CI’s secrets as/)).toBeInTheDocument();
    const [post] = server.callsTo('POST', '/auth/users/user-1/personal_access_tokens');
    expect(post?.body).toEqual({
      name: 'ci: production/shop',
      scope: 'manage',
      expires_in_days: DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
    });
    expect(post?.headers.Authorization).toBe(`Bearer ${sessionStore.getState().elevatedToken?.accessToken}`);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
  });

  it('asks for the password first when the session holds no elevated token', async () => {
    const server = appConsole('docker', REMOTE);
    const { router } = renderApp('/apps/1/ci-cd');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate a token for CI' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/elevate'));
    expect(router.state.location.search).toContain('redirect=%2Fapps%2F1%2Fci-cd');
    expect(server.callsTo('POST', '/auth/users/user-1/personal_access_tokens')).toHaveLength(0);
  });

  it('shows no remote for an app on a simulated stack, and says why', async () => {
    appConsole('sim', 'git@on-berth.localhost:production/shop.git');
    renderApp('/apps/1/ci-cd');
    expect(await screen.findByText('No git remote')).toBeInTheDocument();
    expect(
      screen.getByText(/This app runs on shared-us-west-1, a simulated stack: it builds no code/),
    ).toBeInTheDocument();
    // No push commands to an address nothing answers, and no token for them.
    expect(screen.queryByRole('region', { name: 'Push from your machine' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Push from CI' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Generate a token for CI' })).not.toBeInTheDocument();
  });
});
