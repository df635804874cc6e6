import { type EnvironmentResource, updateEnvironmentSchema } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromEnvironmentDetailResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

/** contract §5.6 PATCH /accounts/:id {handle} (admin scope). */
export function useRenameEnvironment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (handle: string) => {
      const body = updateEnvironmentSchema.parse({ handle });
      return fromEnvironmentDetailResource(
        await apiRequest<EnvironmentResource>('api', `/accounts/${encodeURIComponent(id)}`, {
          method: 'PATCH',
          body,
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
