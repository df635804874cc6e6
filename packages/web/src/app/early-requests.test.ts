import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../test/fetch-mock.ts';
import { errorBody, organizationHal, tokenHal, userHal } from '../../test/fixtures.ts';
import { testQueryClient } from '../../test/render.tsx';
import { billingDetailPath } from '../features/billing/api/billing.ts';
import { activityPagePath, NO_OPERATION_FILTERS } from '../features/operations/api/operation-filters.ts';
import { bootSession } from '../features/session/api/use-boot-session.ts';
import { apiRequest } from '../lib/api-client.ts';
import { EARLY_ANSWER_MS, earlyGeneration, requestEarly } from '../lib/early-answers.ts';
import { createSessionStore, fromTokenResource, NO_TOKEN_FOUND, sessionStore } from '../lib/session-store.ts';
import { startupPaths } from '../lib/startup-paths.ts';
import { startEarlyRequests } from './early-requests.ts';

const ORGANIZATION = organizationHal().id;
/** The session check and contract §7's required data, as method and path. */
const REQUIRED = [
  'GET /api/accounts',
  'GET /api/stacks',
  'GET /auth/current_token',
  'GET /auth/organizations',
  `GET /auth/organizations/${ORGANIZATION}/roles`,
  'GET /auth/users/user-1',
  'GET /auth/users/user-1/roles',
  `GET /billing/billing_details/${ORGANIZATION}`,
];
const at = (path: string) => new URL(path, 'http://console.test');
/** One token for the test file: a token made later would carry another issue time. */
const TOKEN = tokenHal();
const signedIn = () => ({ 'GET /auth/current_token': () => json(200, TOKEN), ...consoleRoutes() });
const asked = (calls: RecordedCall[]) =>
  calls.map((call) => `${call.method} ${call.path.split('?')[0]}`).sort();
const settled = async (calls: RecordedCall[], count: number) => {
  await expect.poll(() => calls.length, { timeout: 5000 }).toBe(count);
  // Nothing more comes.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(calls).toHaveLength(count);
};

/** Boot as main.tsx runs it (a store still booting); the console's calls then go out with its token. */
async function boot(): Promise<ReturnType<typeof createSessionStore>> {
  const store = createSessionStore();
  await bootSession(testQueryClient(), store);
  const token = store.getState().accessToken;
  if (token) sessionStore.signIn(token);
  return store;
}

/** Every start-up call of a signed-in console, as the console's own code makes it. */
async function askAsTheConsole(): Promise<void> {
  await apiRequest('auth', startupPaths.user('user-1'), { auth: 'elevated' });
  await apiRequest('auth', startupPaths.organizations);
  await apiRequest('auth', startupPaths.userRoles('user-1'));
  await apiRequest('auth', startupPaths.organizationRoles(ORGANIZATION));
  await apiRequest('billing', billingDetailPath(ORGANIZATION));
  await apiRequest('api', startupPaths.stacks);
  await apiRequest('api', startupPaths.environments);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the requests sent as the console starts', () => {
  it('sends the session check, the required data and the list page’s rows, each taken by the console’s own call', async () => {
    const { calls } = mockServer(signedIn());
    startEarlyRequests(at('/apps/'));
    await settled(calls, 9);
    expect(asked(calls)).toEqual([...REQUIRED, 'GET /api/apps'].sort());
    // With the bearer of the session checked, as the console's own calls send it.
    expect(
      calls.find((call) => call.path === '/api/apps?per_page=5000&no_embed=true')?.headers.Authorization,
    ).toBe(`Bearer ${TOKEN.access_token}`);

    expect((await boot()).getState().phase).toBe('authenticated');
    await askAsTheConsole();
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(9);
    // Taken once: the next call asks the server.
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(10);
  });

  it("asks for a list page's rows, the plain Activity page's first page, and nothing for other pages", async () => {
    for (const [path, list] of [
      ['/services', 'GET /api/services'],
      ['/databases', 'GET /api/databases'],
      ['/activity', `GET /api/organizations/${ORGANIZATION}/operations`],
    ] as const) {
      const { calls } = mockServer(signedIn());
      startEarlyRequests(at(path));
      await settled(calls, 9);
      expect(asked(calls)).toEqual([...REQUIRED, list].sort());
      sessionStore.reset();
    }
    for (const path of ['/apps/42', '/environments', '/activity?operation_status=failed']) {
      const { calls } = mockServer(signedIn());
      startEarlyRequests(at(path));
      await settled(calls, 8);
      expect(asked(calls)).toEqual(REQUIRED);
      sessionStore.reset();
    }
  });

  it('asks for the organization the console opens: a usable one when the selected one needs a new sign-in, and nothing of one that does', async () => {
    const sso = organizationHal({
      id: 'org-sso',
      reauthRequired: true,
      updatedAt: '2026-01-02T00:00:00.000Z',
    });
    const usable = organizationHal({ id: 'org-usable' });
    const user = userHal({ selectedOrganizationId: 'org-sso' });
    const route = (organizations: ReturnType<typeof organizationHal>[]) => ({
      'GET /auth/current_token': () => json(200, TOKEN),
      ...consoleRoutes({ user, organizations }),
    });
    let { calls } = mockServer(route([sso, usable]));
    startEarlyRequests(at('/environments'));
    await settled(calls, 8);
    expect(asked(calls).filter((call) => call.includes('org-'))).toEqual([
      'GET /auth/organizations/org-usable/roles',
      'GET /billing/billing_details/org-usable',
    ]);
    sessionStore.reset();
    // Only the one needing a new sign-in: the shell shows its SSO error and asks nothing of it.
    ({ calls } = mockServer(route([sso])));
    startEarlyRequests(at('/environments'));
    await settled(calls, 6);
    expect(asked(calls).some((call) => call.includes('org-sso'))).toBe(false);
    sessionStore.reset();
  });

  it('asks for no billing detail when the organization has none', async () => {
    const organization = organizationHal();
    delete (organization._links as Partial<typeof organization._links>).billing_detail;
    const { calls } = mockServer({
      'GET /auth/current_token': () => json(200, TOKEN),
      ...consoleRoutes({ organizations: [organization] }),
    });
    startEarlyRequests(at('/environments'));
    await settled(calls, 7);
    expect(asked(calls)).toEqual(REQUIRED.filter((call) => !call.includes('/billing/')));
    sessionStore.reset();
  });

  it('asks for the Activity page as the page does, so the page takes the answer', async () => {
    const { calls } = mockServer(signedIn());
    startEarlyRequests(at('/activity'));
    await settled(calls, 9);
    await boot();
    const operations = `/organizations/${ORGANIZATION}/operations`;
    await apiRequest('api', activityPagePath(operations, 1, NO_OPERATION_FILTERS, Date.now()));
    expect(calls).toHaveLength(9);
  });

  it('sends only the session check without a session, and boot reads its answer', async () => {
    const { calls } = mockServer({
      'GET /auth/current_token': () => json(401, errorBody(401, 'invalid_token', 'No active session')),
    });
    startEarlyRequests(at('/apps'));
    await settled(calls, 1);
    expect((await boot()).getState()).toMatchObject({ phase: 'anonymous', bootNote: NO_TOKEN_FOUND });
    expect(asked(calls)).toEqual(['GET /auth/current_token']);
  });

  it('is not taken by another bearer, or after a while', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'Date'] });
    const { calls } = mockServer(signedIn());
    startEarlyRequests(at('/apps'));
    await vi.waitFor(() => expect(calls).toHaveLength(9));
    await boot();
    const token = sessionStore.getState().accessToken;
    if (!token) throw new Error('not signed in');
    // Another bearer: the same path asked with someone else's token is asked again.
    sessionStore.signIn({ ...token, accessToken: 'other' });
    await apiRequest('api', startupPaths.stacks);
    expect(calls).toHaveLength(10);
    // Past EARLY_ANSWER_MS an early answer is stale and asked for again.
    vi.advanceTimersByTime(EARLY_ANSWER_MS + 1);
    sessionStore.signIn(token);
    await apiRequest('api', startupPaths.environments);
    expect(calls).toHaveLength(11);
  });

  it('is not taken after a write: what it says may have changed', async () => {
    const { calls } = mockServer({ ...signedIn(), 'POST /auth/organizations': () => json(201, {}) });
    startEarlyRequests(at('/apps'));
    await settled(calls, 9);
    await boot();
    await apiRequest('auth', startupPaths.organizations, { method: 'POST', body: { name: 'Second' } });
    await apiRequest('auth', startupPaths.organizations);
    await apiRequest('api', startupPaths.apps);
    expect(asked(calls.slice(9))).toEqual([
      'GET /api/apps',
      'GET /auth/organizations',
      'POST /auth/organizations',
    ]);
  });

  it('keeps no answer of a call the chain sends after a write', async () => {
    const { calls } = mockServer({ ...signedIn(), 'POST /auth/organizations': () => json(201, {}) });
    const generation = earlyGeneration();
    await apiRequest('auth', startupPaths.organizations, { method: 'POST', body: { name: 'Second' } });
    requestEarly('api', startupPaths.stacks, TOKEN.access_token, generation).catch(() => {});
    await expect.poll(() => calls.length).toBe(2);
    sessionStore.signIn(fromTokenResource(TOKEN));
    await apiRequest('api', startupPaths.stacks);
    expect(asked(calls)).toEqual(['GET /api/stacks', 'GET /api/stacks', 'POST /auth/organizations']);
  });

  it('is dropped when the session ends', async () => {
    const { calls } = mockServer(signedIn());
    startEarlyRequests(at('/apps'));
    await settled(calls, 9);
    await boot();
    const token = sessionStore.getState().accessToken;
    sessionStore.reset();
    if (token) sessionStore.signIn(token);
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(10);
  });
});
