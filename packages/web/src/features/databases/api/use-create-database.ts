import {
  createDatabaseSchema,
  DATABASE_DEFAULTS,
  type DatabaseResource,
  databaseContainerSize,
  type OperationResource,
  operationRequest,
  operationsPath,
} from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type Database, fromDatabaseResource } from '../../../resources/databases/database.hal.ts';

export interface CreateDatabaseRequest {
  environmentId: string;
  handle: string;
  /** The image's engine (`postgresql`, …), sent as `type`. */
  type: string;
  databaseImageId: string;
  enableBackups: boolean;
  containerSizeMb: number;
  diskSizeGb: number;
}

/**
 * spec 3 §7 database create: POST /accounts/:envId/databases makes the record only (contract §5.8), then
 * POST /databases/:id/operations `provision` with the scaler values starts it. The answer is the new
 * database, so the page can follow it while it provisions.
 */
export function useCreateDatabase() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateDatabaseRequest): Promise<Database> => {
      const body = createDatabaseSchema.parse({
        handle: input.handle,
        type: input.type,
        database_image_id: input.databaseImageId,
        enable_backups: input.enableBackups,
      });
      const created = fromDatabaseResource(
        await apiRequest<DatabaseResource>(
          'api',
          `/accounts/${encodeURIComponent(input.environmentId)}/databases`,
          { method: 'POST', body: { ...body, account_id: input.environmentId } },
        ),
      );
      await apiRequest<OperationResource>('api', operationsPath('database', created.id), {
        method: 'POST',
        body: operationRequest('database', 'provision', {
          // spec 2 §2: Elasticsearch runs in at least 1024 MB, whatever was asked for.
          container_size: databaseContainerSize(input.type, input.containerSizeMb),
          disk_size: input.diskSizeGb,
          provisioned_iops: DATABASE_DEFAULTS.provisionedIops,
          instance_profile: DATABASE_DEFAULTS.instanceProfile,
        }),
      });
      return created;
    },
    // Lists, environment counts and costs elsewhere change with it. The refetch is not awaited: the
    // console moves on to the new resource's page at once instead of waiting for every list to reload.
    onSuccess: () => {
      void queryClient.invalidateQueries();
    },
  });
}
