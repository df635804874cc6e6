import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromStackHal, type StackHal } from './stack.hal.ts';
import { stackKeys } from './stack-keys.ts';

/** contract §5.6 GET /stacks/:id. */
export function useStack(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: stackKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromStackHal(await apiRequest<StackHal>('api', `/stacks/${encodeURIComponent(id)}`, { signal })),
    enabled: phase === 'authenticated' && id !== '',
  });
}
