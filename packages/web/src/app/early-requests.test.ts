import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../test/console-routes.ts';
import { json, mockServer } from '../../test/fetch-mock.ts';
import { errorBody, tokenHal } from '../../test/fixtures.ts';
import { testQueryClient } from '../../test/render.tsx';
import { bootSession } from '../features/session/api/use-boot-session.ts';
import { apiRequest, EARLY_ANSWER_MS } from '../lib/api-client.ts';
import { createSessionStore, NO_TOKEN_FOUND, sessionStore } from '../lib/session-store.ts';
import { startupPaths } from '../lib/startup-paths.ts';
import { startEarlyRequests } from './early-requests.ts';

const REQUIRED = [
  'GET /auth/current_token',
  'GET /auth/users/user-1',
  'GET /auth/organizations',
  'GET /auth/users/user-1/roles',
  'GET /api/stacks',
  'GET /api/accounts',
];
const signedIn = () => ({ 'GET /auth/current_token': () => json(200, tokenHal()), ...consoleRoutes() });
/** Boot as main.tsx runs it (a store still booting), then the console's calls go out with its token. */
async function boot(): Promise<ReturnType<typeof createSessionStore>> {
  const store = createSessionStore();
  await bootSession(testQueryClient(), store);
  const token = store.getState().accessToken;
  if (token) sessionStore.signIn(token);
  return store;
}
const asked = (calls: { method: string; path: string }[]) =>
  calls.map((call) => `${call.method} ${call.path.split('?')[0]}`);

afterEach(() => {
  vi.useRealTimers();
});

describe('the requests sent as the console starts', () => {
  it('sends the session check, then the required data and the list page’s rows, each taken by the console’s own call', async () => {
    const { calls } = mockServer(signedIn());
    startEarlyRequests('/apps/');
    await expect.poll(() => calls.length, { timeout: 5000 }).toBe(7);
    expect(asked(calls)).toEqual([...REQUIRED, 'GET /api/apps']);
    // The bearer of the session checked, as the console's own calls send it.
    expect(calls[1]?.headers.Authorization).toBe(`Bearer ${tokenHal().access_token}`);

    expect((await boot()).getState().phase).toBe('authenticated');
    await apiRequest('auth', startupPaths.user('user-1'), { auth: 'elevated' });
    await apiRequest('auth', startupPaths.organizations);
    await apiRequest('auth', startupPaths.userRoles('user-1'));
    await apiRequest('api', startupPaths.stacks);
    await apiRequest('api', startupPaths.environments);
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(7);
    // Taken once: the next call asks the server.
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(8);
  });

  it('asks only for the rows of a list page', async () => {
    for (const [pathname, list] of [
      ['/services', 'GET /api/services'],
      ['/databases', 'GET /api/databases'],
    ] as const) {
      const { calls } = mockServer(signedIn());
      startEarlyRequests(pathname);
      await expect.poll(() => calls.length, { timeout: 5000 }).toBe(7);
      expect(asked(calls).at(-1)).toBe(list);
      sessionStore.reset();
    }
    const { calls } = mockServer(signedIn());
    startEarlyRequests('/apps/42');
    await expect.poll(() => calls.length, { timeout: 5000 }).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked(calls)).toEqual(REQUIRED);
  });

  it('sends only the session check without a session, and boot reads its answer', async () => {
    const { calls } = mockServer({
      'GET /auth/current_token': () => json(401, errorBody(401, 'invalid_token', 'No active session')),
    });
    startEarlyRequests('/apps');
    await expect.poll(() => calls.length, { timeout: 5000 }).toBe(1);
    expect((await boot()).getState()).toMatchObject({ phase: 'anonymous', bootNote: NO_TOKEN_FOUND });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked(calls)).toEqual(['GET /auth/current_token']);
  });

  it('is not taken by another bearer, or after a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const { calls } = mockServer({ ...signedIn(), 'POST /api/apps': () => json(201, {}) });
    startEarlyRequests('/apps');
    await vi.waitFor(() => expect(calls).toHaveLength(7));
    await boot();
    const token = sessionStore.getState().accessToken;
    if (!token) throw new Error('not signed in');
    // Another bearer: the same path asked with someone else's token is asked again.
    sessionStore.signIn({ ...token, accessToken: 'other' });
    await apiRequest('api', startupPaths.stacks);
    expect(calls).toHaveLength(8);
    // Past EARLY_ANSWER_MS an early answer is stale and asked for again.
    vi.advanceTimersByTime(EARLY_ANSWER_MS + 1);
    sessionStore.signIn(token);
    await apiRequest('api', startupPaths.environments);
    expect(calls).toHaveLength(9);
  });

  it('is not taken after a write: what it says may have changed', async () => {
    const { calls } = mockServer({ ...signedIn(), 'POST /auth/organizations': () => json(201, {}) });
    startEarlyRequests('/apps');
    await expect.poll(() => calls.length, { timeout: 5000 }).toBe(7);
    await boot();
    await apiRequest('auth', startupPaths.organizations, { method: 'POST', body: { name: 'Second' } });
    await apiRequest('auth', startupPaths.organizations);
    await apiRequest('api', startupPaths.apps);
    expect(asked(calls).slice(7)).toEqual([
      'POST /auth/organizations',
      'GET /auth/organizations',
      'GET /api/apps',
    ]);
  });

  it('is dropped when the session ends', async () => {
    const { calls } = mockServer(signedIn());
    startEarlyRequests('/apps');
    await expect.poll(() => calls.length, { timeout: 5000 }).toBe(7);
    await boot();
    const token = sessionStore.getState().accessToken;
    sessionStore.reset();
    if (token) sessionStore.signIn(token);
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(8);
  });
});
