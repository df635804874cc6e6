import type { EnvironmentResource } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromEnvironmentResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §7 step 7: every environment the caller can read, across organizations. */
export function environmentsQuery() {
  return queryOptions({
    queryKey: environmentKeys.list(),
    queryFn: async ({ signal }) => {
      return (await allPages<EnvironmentResource>('api', startupPaths.environments, 'accounts', signal)).map(
        fromEnvironmentResource,
      );
    },
  });
}

export function useEnvironments() {
  const { phase } = useSession();
  return useQuery({ ...environmentsQuery(), enabled: phase === 'authenticated' });
}
