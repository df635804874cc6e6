import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../test/console-routes.ts';
import { mockServer } from '../../test/fetch-mock.ts';
import { signIn, testQueryClient } from '../../test/render.tsx';
import { organizationKeys } from '../features/organizations/api/organization-keys.ts';
import { sessionStore } from '../lib/session-store.ts';
import { prefetchRequiredData } from './required-data.ts';

describe('the required data, asked for as soon as the session is known', () => {
  it('asks for the user, organizations, roles, stacks and environments of a signed-in session', async () => {
    signIn();
    const { calls } = mockServer(consoleRoutes());
    const queryClient = testQueryClient();
    prefetchRequiredData(queryClient, sessionStore.getState());
    await expect.poll(() => calls.length).toBe(5);
    expect(calls.map((call) => call.path.split('?')[0]).sort()).toEqual([
      '/api/accounts',
      '/api/stacks',
      '/auth/organizations',
      '/auth/users/user-1',
      '/auth/users/user-1/roles',
    ]);
    await expect.poll(() => queryClient.isFetching()).toBe(0);
    expect(queryClient.getQueryData(organizationKeys.list())).toBeDefined();
  });

  it('asks for nothing without a session', () => {
    const { calls } = mockServer({});
    prefetchRequiredData(testQueryClient(), sessionStore.getState());
    expect(calls).toEqual([]);
  });
});
