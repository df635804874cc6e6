import type { OperationResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';
import { to } from '../../lib/paths.ts';

/** contract §4.3 operation as the console reads it: every screen that shows or follows one uses this. */
export interface Operation {
  id: string;
  type: string;
  status: string;
  resourceType: string;
  resourceId: string;
  resourceHandle: string;
  environmentId: string | null;
  gitRef: string | null;
  dockerRef: string | null;
  containerCount: number | null;
  containerSize: number | null;
  instanceProfile: string | null;
  /** Databases: GB (null or 0 = unchanged) and IOPS (0 = unchanged). */
  diskSize: number | null;
  provisionedIops: number;
  /** Berth addition: what a scale changed from, recorded when it ran (spec 2 §4 Last Scale). */
  previousContainerCount: number | null;
  previousContainerSize: number | null;
  previousInstanceProfile: string | null;
  env: Record<string, string | null> | null;
  /** A scan_code operation's result, once it succeeded (contract §4.3 code_scan_result). */
  codeScanResultId?: string | null;
  /** A restore's or a replica's new database (Berth addition, issue 41). */
  newDatabaseId?: string | null;
  note: string;
  /**
   * A failed operation's reason (Berth addition, issue 41: its log's first error line, else its note), as
   * operation lists answer it; undefined where the answer does not carry it (read the log instead).
   */
  failureReason?: string | null;
  userName: string;
  userEmail: string;
  createdAt: string;
  updatedAt: string;
}

export function fromOperationResource(operation: OperationResource): Operation {
  return {
    id: idOf(operation),
    type: operation.type,
    status: operation.status,
    resourceType: operation.resource_type,
    resourceId: operation.resource_id,
    resourceHandle: operation.resource_handle,
    environmentId: linkId(operation, 'account'),
    gitRef: operation.git_ref,
    dockerRef: operation.docker_ref,
    containerCount: operation.container_count,
    containerSize: operation.container_size,
    instanceProfile: operation.instance_profile,
    diskSize: operation.disk_size,
    provisionedIops: operation.provisioned_iops,
    // A server older than the `previous_*` fields leaves them out: unknown.
    previousContainerCount: operation.previous_container_count ?? null,
    previousContainerSize: operation.previous_container_size ?? null,
    previousInstanceProfile: operation.previous_instance_profile ?? null,
    env: operation.env,
    codeScanResultId: linkId(operation, 'code_scan_result'),
    newDatabaseId: linkId(operation, 'new_database'),
    note: operation.note,
    failureReason: operation.failure_reason,
    userName: operation.user_name,
    userEmail: operation.user_email,
    createdAt: operation.created_at,
    updatedAt: operation.updated_at,
  };
}

/**
 * spec 2 §4, contract §1.2: a deprovision whose operation is gone (404) has succeeded. What was known of
 * it is kept; if nothing was, the console knows only its id and type.
 */
export function deprovisionSucceeded(id: string, known: Operation | undefined): Operation {
  if (known) return { ...known, status: 'succeeded' };
  return {
    id,
    type: 'deprovision',
    status: 'succeeded',
    resourceType: '',
    resourceId: '',
    resourceHandle: '',
    environmentId: null,
    gitRef: null,
    dockerRef: null,
    containerCount: null,
    containerSize: null,
    instanceProfile: null,
    diskSize: null,
    provisionedIops: 0,
    previousContainerCount: null,
    previousContainerSize: null,
    previousInstanceProfile: null,
    env: null,
    note: '',
    userName: '',
    userEmail: '',
    createdAt: '',
    updatedAt: '',
  };
}

/** What an operation's service belongs to, once known: its app or its database. */
export interface OperationServiceOwner {
  appId: string | null;
  databaseId: string | null;
}

/**
 * A Berth path inside the console for an operation's resource, where one exists. A service's page sits
 * under its app, so a service links only once its owner is known (`serviceOwner`, or its app id): an
 * app's service to the service page, a database's service to the database. An environment (`account`)
 * links to its page; a backup has no page of its own.
 */
export function operationResourcePath(
  operation: Pick<Operation, 'resourceType' | 'resourceId'>,
  serviceOwner: OperationServiceOwner | string | null = null,
): string | null {
  if (!operation.resourceId) return null;
  if (operation.resourceType === 'app') return to.app(operation.resourceId);
  if (operation.resourceType === 'service') {
    const owner = typeof serviceOwner === 'string' ? { appId: serviceOwner, databaseId: null } : serviceOwner;
    if (owner?.appId) return to.service(owner.appId, operation.resourceId);
    if (owner?.databaseId) return to.database(owner.databaseId);
    return null;
  }
  if (operation.resourceType === 'database') return to.database(operation.resourceId);
  if (operation.resourceType === 'vhost') return to.endpoint(operation.resourceId);
  if (operation.resourceType === 'account') return to.environment(operation.resourceId);
  return null;
}
