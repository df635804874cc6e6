import type { SourceResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromSourceResource } from '../../../resources/sources/source.hal.ts';
import { sourceKeys } from './source-keys.ts';

/** contract §5.7 GET /sources/:id. */
export function useSource(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: sourceKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromSourceResource(
        await apiRequest<SourceResource>('api', `/sources/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
  });
}
