import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromServiceHal, type ServiceHal } from './service.hal.ts';
import { serviceKeys } from './service-keys.ts';

/** contract §5.7 GET /services/:id. */
export function useService(id: string) {
  return useQuery({
    queryKey: serviceKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromServiceHal(await apiRequest<ServiceHal>('api', `/services/${encodeURIComponent(id)}`, { signal })),
  });
}
