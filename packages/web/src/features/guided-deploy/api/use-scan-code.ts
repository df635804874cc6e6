import { type OperationResource, operationRequest, operationsPath } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';

/** contract §6 `scan_code` with the pushed ref: the code scan of a git-push deploy (spec 3). */
export function useScanCode(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (gitRef: string) =>
      fromOperationResource(
        await apiRequest<OperationResource>('api', operationsPath('app', appId), {
          method: 'POST',
          body: operationRequest('app', 'scan_code', { git_ref: gitRef }),
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKeys.lists() }),
  });
}
