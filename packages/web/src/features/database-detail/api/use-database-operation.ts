import {
  type OperationRequest,
  type OperationResource,
  type OperationTypeOf,
  operationsPath,
} from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';

/** A database operation body built with core's `operationRequest('database', type, keys)` (contract §6). */
export type DatabaseOperationRequest = OperationRequest<'database', OperationTypeOf<'database'>>;

export interface StartedOperation {
  id: string;
  type: string;
  status: string;
}

/** contract §6 POST /databases/:id/operations; answers the queued operation. */
export async function startDatabaseOperation(
  databaseId: string,
  request: DatabaseOperationRequest,
): Promise<StartedOperation> {
  const operation = await apiRequest<OperationResource>('api', operationsPath('database', databaseId), {
    method: 'POST',
    body: request,
  });
  return { id: idOf(operation), type: operation.type, status: operation.status };
}

/** A mutation around startDatabaseOperation that refreshes the database and the operation lists. */
export function useStartDatabaseOperation(databaseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: DatabaseOperationRequest) => startDatabaseOperation(databaseId, request),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: databaseKeys.detail(databaseId) });
      void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
    },
  });
}
