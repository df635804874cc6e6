import { type AppResource, updateAppSchema } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromAppResource } from '../../../resources/apps/app.hal.ts';

/** spec 2 §7 PUT /apps/:id with the new handle. */
export function useRenameApp(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (handle: string) =>
      fromAppResource(
        await apiRequest<AppResource>('api', `/apps/${encodeURIComponent(appId)}`, {
          method: 'PUT',
          body: updateAppSchema.parse({ handle }),
        }),
      ),
    // Environment app counts, costs and lists elsewhere change with it.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
