import {
  isOperationResourceType,
  type OperationRequest,
  type OperationResource,
  type OperationResourceType,
  type OperationTypeOf,
  operationRequest,
  operationsPath,
  operationTypeEntry,
} from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromOperationResource, type Operation } from '../../../resources/operations/operation.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';

type Rebuilders = {
  [R in OperationResourceType]: {
    [T in OperationTypeOf<R>]?: (operation: Operation) => OperationRequest<R, T>;
  };
};

/** The keys an operation was asked with, for the types that have any; the others repost their type alone. */
const REBUILD: Rebuilders = {
  app: {
    deploy: ({ dockerRef, gitRef }) =>
      operationRequest(
        'app',
        'deploy',
        dockerRef ? { docker_image: dockerRef } : gitRef ? { git_ref: gitRef } : {},
      ),
    scan_code: ({ gitRef }) => operationRequest('app', 'scan_code', gitRef ? { git_ref: gitRef } : {}),
    configure: ({ env }) => operationRequest('app', 'configure', { env: env ?? {} }),
    restart: ({ resourceId }) => operationRequest('app', 'restart', { id: resourceId }),
  },
  service: {
    scale: ({ resourceId, containerCount, containerSize, instanceProfile }) =>
      operationRequest('service', 'scale', {
        id: resourceId,
        ...(containerCount !== null ? { container_count: containerCount } : {}),
        ...(containerSize !== null ? { container_size: containerSize } : {}),
        ...(instanceProfile ? { instance_profile: instanceProfile } : {}),
      }),
    restart: ({ resourceId }) => operationRequest('service', 'restart', { id: resourceId }),
    restart_recreate: ({ resourceId }) => operationRequest('service', 'restart_recreate', { id: resourceId }),
  },
  vhost: {},
  database: {
    provision: (operation) => operationRequest('database', 'provision', databaseSize(operation)),
    restart: (operation) =>
      operationRequest('database', 'restart', { id: operation.resourceId, ...databaseSize(operation) }),
    scale: (operation) =>
      operationRequest('database', 'scale', { id: operation.resourceId, ...databaseSize(operation) }),
  },
  backup: {},
  log_drain: {},
  metric_drain: {},
  account: {},
};

/** The sizes a database operation asked for (absent ones keep the database's own). */
function databaseSize({ containerSize, diskSize, provisionedIops, instanceProfile }: Operation) {
  return {
    ...(containerSize !== null ? { container_size: containerSize } : {}),
    ...(diskSize ? { disk_size: diskSize } : {}),
    ...(provisionedIops ? { provisioned_iops: provisionedIops } : {}),
    ...(instanceProfile ? { instance_profile: instanceProfile } : {}),
  };
}

/** The request that posts an operation again with the same inputs (contract §6), or null if none. */
export function rerunRequest(operation: Operation): { path: string; body: Record<string, unknown> } | null {
  const { resourceType, type, resourceId } = operation;
  if (!isOperationResourceType(resourceType) || !operationTypeEntry(resourceType, type)) return null;
  const rebuild = (REBUILD[resourceType] as Record<string, ((operation: Operation) => object) | undefined>)[
    type
  ];
  return {
    path: operationsPath(resourceType, resourceId),
    body: { ...(rebuild ? rebuild(operation) : { type }) },
  };
}

/** spec 3 §2 Re-run: posts the same operation again; the lists refresh. */
export function useRerunOperation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (operation: Operation): Promise<Operation> => {
      const request = rerunRequest(operation);
      if (!request) throw new Error(`A ${operation.resourceType} operation cannot be run again here`);
      return fromOperationResource(
        await apiRequest<OperationResource>('api', request.path, { method: 'POST', body: request.body }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: operationKeys.lists() }),
  });
}
