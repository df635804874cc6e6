import type { EnvironmentCollection } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromEnvironmentResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §7 step 7: every environment the caller can read, across organizations. */
export function environmentsQuery() {
  return queryOptions({
    queryKey: environmentKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<EnvironmentCollection>('api', startupPaths.environments, { signal });
      return embeddedList(list, 'accounts').map(fromEnvironmentResource);
    },
  });
}

export function useEnvironments() {
  const { phase } = useSession();
  return useQuery({ ...environmentsQuery(), enabled: phase === 'authenticated' });
}
