import { type AppResource, createAppSchema } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromAppResource } from '../../../resources/apps/app.hal.ts';

/** spec 3 §7 POST /accounts/:envId/apps with handle and account_id. */
export function useCreateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { environmentId: string; handle: string }) => {
      const { handle } = createAppSchema.parse({ handle: input.handle });
      return fromAppResource(
        await apiRequest<AppResource>('api', `/accounts/${encodeURIComponent(input.environmentId)}/apps`, {
          method: 'POST',
          body: { handle, account_id: input.environmentId },
        }),
      );
    },
    // Environment app counts, costs and lists elsewhere change with it. The refetch is not awaited: the
    // console moves on to the new resource's page at once instead of waiting for every list to reload.
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
