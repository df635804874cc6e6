import type { StackResource } from '@berth/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { useSession } from '../../lib/session-store.ts';
import { fromStackResource } from './stack.hal.ts';
import { stackKeys } from './stack-keys.ts';

/** contract §5.6 GET /stacks/:id: one cache entry for the stack page and the scale form's profiles. */
export function stackQuery(id: string) {
  return queryOptions({
    queryKey: stackKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromStackResource(
        await apiRequest<StackResource>('api', `/stacks/${encodeURIComponent(id)}`, { signal }),
      ),
  });
}

/** contract §5.6 GET /stacks/:id. */
export function useStack(id: string) {
  const { phase } = useSession();
  return useQuery({ ...stackQuery(id), enabled: phase === 'authenticated' && id !== '' });
}
