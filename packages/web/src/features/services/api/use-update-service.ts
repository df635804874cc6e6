import { type ServiceResource, type ServiceSettingsInput, serviceSettingsSchema } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromServiceResource } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/** spec 2 §7 PUT /services/:id: force_zero_downtime, naive_health_check, stop_timeout. */
export function useUpdateService(serviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: ServiceSettingsInput) =>
      fromServiceResource(
        await apiRequest<ServiceResource>('api', `/services/${encodeURIComponent(serviceId)}`, {
          method: 'PUT',
          body: serviceSettingsSchema.parse(input),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceKeys.all }),
  });
}
