import type { StackResource } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromStackResource } from '../../../resources/stacks/stack.hal.ts';
import { stackKeys } from '../../../resources/stacks/stack-keys.ts';

/** contract §7 step 7: every stack the caller can see, in one page. */
export function stacksQuery() {
  return queryOptions({
    queryKey: stackKeys.list(),
    queryFn: async ({ signal }) => {
      return (await allPages<StackResource>('api', startupPaths.stacks, 'stacks', signal)).map(
        fromStackResource,
      );
    },
  });
}

export function useStacks() {
  const { phase } = useSession();
  return useQuery({ ...stacksQuery(), enabled: phase === 'authenticated' });
}
