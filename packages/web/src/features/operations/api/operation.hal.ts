import { idFromHref } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';
import { to } from '../../../lib/paths.ts';

/** contract §4.3 operation, plus Berth's resource_type / resource_id / resource_handle. */
export interface OperationHal extends HalResource {
  type: string;
  status: string;
  git_ref?: string | null;
  docker_ref?: string | null;
  container_count?: number | null;
  container_size?: number | null;
  instance_profile?: string | null;
  env?: Record<string, string | null> | null;
  note?: string | null;
  user_name?: string | null;
  user_email?: string | null;
  resource_type?: string | null;
  resource_id?: string | number | null;
  resource_handle?: string | null;
  created_at?: string;
  updated_at?: string;
}

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
  env: Record<string, string | null> | null;
  note: string;
  userName: string;
  userEmail: string;
  createdAt: string;
  updatedAt: string;
}

/** contract §1.6: the resource type is the second-to-last segment of the resource link. */
const RESOURCE_TYPES: Record<string, string> = {
  apps: 'app',
  databases: 'database',
  vhosts: 'vhost',
  services: 'service',
  backups: 'backup',
  releases: 'release',
  containers: 'container',
  vpc_peers: 'vpc_peer',
  vpn_tunnels: 'vpn_tunnel',
  log_drains: 'log_drain',
  metric_drains: 'metric_drain',
  ephemeral_sessions: 'ephemeral_session',
};

function resourceTypeFromLink(href: string | undefined): string {
  const segments = (href ?? '').split('/');
  return RESOURCE_TYPES[segments[segments.length - 2] ?? ''] ?? 'unknown';
}

export function fromOperationHal(operation: OperationHal): Operation {
  const resourceHref = operation._links.resource?.href;
  return {
    id: idOf(operation),
    type: operation.type ?? '',
    status: operation.status ?? '',
    resourceType: operation.resource_type || resourceTypeFromLink(resourceHref),
    resourceId: String(operation.resource_id ?? idFromHref(resourceHref) ?? ''),
    resourceHandle: operation.resource_handle ?? '',
    environmentId: linkId(operation, 'account'),
    gitRef: operation.git_ref ?? null,
    dockerRef: operation.docker_ref ?? null,
    containerCount: operation.container_count ?? null,
    containerSize: operation.container_size ?? null,
    instanceProfile: operation.instance_profile ?? null,
    env: operation.env ?? null,
    note: operation.note ?? '',
    userName: operation.user_name ?? '',
    userEmail: operation.user_email ?? '',
    createdAt: operation.created_at ?? '',
    updatedAt: operation.updated_at ?? operation.created_at ?? '',
  };
}

/** spec 3 §2: the activity filters, in the console's query string; `all` means no filter. */
export interface OperationFilters {
  resourceType: string;
  operationType: string;
  operationStatus: string;
}

export const ALL = 'all';

/** Every operation of a scope (the resource banners read the newest page unfiltered). */
export const NO_OPERATION_FILTERS: OperationFilters = {
  resourceType: ALL,
  operationType: ALL,
  operationStatus: ALL,
};

/** contract §5.11: the server reads resource_type, operation_type (or type) and operation_status (or status). */
export function operationListPath(basePath: string, page: number, filters: OperationFilters): string {
  const [path, existing] = basePath.split('?');
  const query = new URLSearchParams(existing ?? '');
  query.set('page', String(page));
  if (filters.resourceType !== ALL) query.set('resource_type', filters.resourceType);
  if (filters.operationType !== ALL) query.set('operation_type', filters.operationType);
  if (filters.operationStatus !== ALL) query.set('operation_status', filters.operationStatus);
  return `${path}?${query}`;
}

/**
 * A Berth path inside the console for an operation's resource, where one exists. A service's page sits
 * under its app, so a service links only once its app id is known (`serviceAppId`).
 */
export function operationResourcePath(
  operation: Pick<Operation, 'resourceType' | 'resourceId'>,
  serviceAppId: string | null = null,
): string | null {
  if (operation.resourceType === 'app') return to.app(operation.resourceId);
  if (operation.resourceType === 'service') {
    return serviceAppId ? to.service(serviceAppId, operation.resourceId) : null;
  }
  if (operation.resourceType === 'database') return to.database(operation.resourceId);
  if (operation.resourceType === 'vhost') return to.endpoint(operation.resourceId);
  return null;
}
