import type { EnvironmentResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromEnvironmentDetailResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §5.6 GET /accounts/:id: one environment with its stats (containers, disk, backups). */
export function useEnvironment(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: environmentKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromEnvironmentDetailResource(
        await apiRequest<EnvironmentResource>('api', `/accounts/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
  });
}
