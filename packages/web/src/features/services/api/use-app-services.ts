import type { ServiceCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { fromServiceResource } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/** spec 2 §7 GET /apps/:id/services. */
export function useAppServices(appId: string) {
  return useQuery({
    queryKey: serviceKeys.ofApp(appId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<ServiceCollection>('api', `/apps/${encodeURIComponent(appId)}/services`, {
        signal,
      });
      return embeddedList(list, 'services').map(fromServiceResource);
    },
  });
}
