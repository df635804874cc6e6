import type { QueryClient } from '@tanstack/react-query';
import { environmentsQuery } from '../features/environments/api/use-environments.ts';
import { organizationsQuery } from '../features/organizations/api/use-organizations.ts';
import { userRolesQuery } from '../features/roles/api/use-user-roles.ts';
import { stacksQuery } from '../features/stacks/api/use-stacks.ts';
import { userQuery } from '../features/users/api/use-user.ts';
import type { SessionState } from '../lib/session-store.ts';

/**
 * Contract §7 steps 2 to 7 as soon as the session is known: the data every signed-in page waits for
 * (user, organizations, roles, stacks, environments) leaves while the router still loads the page's
 * code, instead of after it. The pages' own queries then find it in the cache.
 */
export function prefetchRequiredData(queryClient: QueryClient, session: SessionState): void {
  const userId = session.phase === 'authenticated' ? session.accessToken?.userId : undefined;
  if (!userId) return;
  // A failure is the page's to show when its own query asks again.
  void queryClient.prefetchQuery(userQuery(userId));
  void queryClient.prefetchQuery(organizationsQuery());
  void queryClient.prefetchQuery(userRolesQuery(userId));
  void queryClient.prefetchQuery(stacksQuery());
  void queryClient.prefetchQuery(environmentsQuery());
}
