import { type EnvironmentCollection, MAX_PAGE_SIZE } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromEnvironmentResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

// contract §5.6: brackets are sent literally; permissions stay embedded even with no_embed.
const LIST_PATH = `/accounts?per_page=${MAX_PAGE_SIZE}&no_embed=true&metrics[]=app_count&metrics[]=database_count`;

/** contract §7 step 7: every environment the caller can read, across organizations. */
export function environmentsQuery() {
  return queryOptions({
    queryKey: environmentKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<EnvironmentCollection>('api', LIST_PATH, { signal });
      return embeddedList(list, 'accounts').map(fromEnvironmentResource);
    },
  });
}

export function useEnvironments() {
  const { phase } = useSession();
  return useQuery({ ...environmentsQuery(), enabled: phase === 'authenticated' });
}
