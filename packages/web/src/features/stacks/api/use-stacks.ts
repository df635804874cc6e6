import type { StackCollection } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromStackResource } from '../../../resources/stacks/stack.hal.ts';
import { stackKeys } from '../../../resources/stacks/stack-keys.ts';

/** contract §7 step 7: every stack the caller can see, in one page. */
export function stacksQuery() {
  return queryOptions({
    queryKey: stackKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<StackCollection>('api', startupPaths.stacks, {
        signal,
      });
      return embeddedList(list, 'stacks').map(fromStackResource);
    },
  });
}

export function useStacks() {
  const { phase } = useSession();
  return useQuery({ ...stacksQuery(), enabled: phase === 'authenticated' });
}
