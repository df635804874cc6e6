import { type CreateEnvironmentInput, createEnvironmentSchema, type EnvironmentResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromEnvironmentResource } from '../../../resources/environments/environment.hal.ts';
import { environmentKeys } from './environment-keys.ts';

export type NewEnvironment = Pick<CreateEnvironmentInput, 'handle' | 'organization_id' | 'stack_id'> & {
  /** spec 3 §7: a dedicated stack makes a production environment. */
  dedicatedStack: boolean;
};

/** spec 3 §7 POST /accounts with handle, organization_id, type, onboarding_status initiated, stack_id. */
export function useCreateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NewEnvironment) => {
      const body = createEnvironmentSchema.parse({
        handle: input.handle,
        organization_id: input.organization_id,
        type: input.dedicatedStack ? 'production' : 'development',
        onboarding_status: 'initiated',
        stack_id: input.stack_id,
      });
      return fromEnvironmentResource(
        await apiRequest<EnvironmentResource>('api', '/accounts', { method: 'POST', body }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}
