import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { fromServiceHal, type ServiceHal } from './service.hal.ts';
import { serviceKeys } from './service-keys.ts';

/** spec 2 §7 GET /apps/:id/services. */
export function useAppServices(appId: string) {
  return useQuery({
    queryKey: serviceKeys.ofApp(appId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<ServiceHal>>(
        'api',
        `/apps/${encodeURIComponent(appId)}/services`,
        { signal },
      );
      return embeddedList(list, 'services').map(fromServiceHal);
    },
  });
}
