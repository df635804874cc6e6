import { isScope, type Scope } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 permission (embedded in accounts). */
export interface PermissionHal extends HalResource {
  scope: string;
}

/** contract §4.3 account: the wire name of an environment. */
export interface EnvironmentHal extends HalResource {
  handle: string;
  organization_id: string;
  type?: string;
  onboarding_status?: string;
  total_app_count?: number;
  total_database_count?: number;
  /** Only on the single view (contract §4.3). */
  container_count?: number;
  app_container_count?: number;
  database_container_count?: number;
  domain_count?: number;
  total_disk_size?: number;
  total_backup_size?: number;
  created_at?: string;
  _embedded?: { permissions?: PermissionHal[] | null };
}

export interface EnvironmentPermission {
  id: string;
  scope: Scope;
  environmentId: string;
  roleId: string;
}

export interface Environment {
  id: string;
  handle: string;
  organizationId: string;
  stackId: string | null;
  type: string;
  onboardingStatus: string;
  appCount: number;
  databaseCount: number;
  permissions: EnvironmentPermission[];
  createdAt: string;
}

function fromPermissionHal(permission: PermissionHal, environmentId: string): EnvironmentPermission | null {
  const roleId = linkId(permission, 'role');
  if (!roleId || !isScope(permission.scope)) return null;
  return {
    id: idOf(permission),
    scope: permission.scope,
    environmentId: linkId(permission, 'account') ?? environmentId,
    roleId,
  };
}

export function fromEnvironmentHal(environment: EnvironmentHal): Environment {
  const id = idOf(environment);
  return {
    id,
    handle: environment.handle ?? '',
    organizationId: String(environment.organization_id ?? ''),
    stackId: linkId(environment, 'stack'),
    type: environment.type ?? 'development',
    onboardingStatus: environment.onboarding_status ?? 'unknown',
    appCount: environment.total_app_count ?? 0,
    databaseCount: environment.total_database_count ?? 0,
    permissions: (environment._embedded?.permissions ?? [])
      .map((permission) => fromPermissionHal(permission, id))
      .filter((permission) => permission !== null),
    createdAt: environment.created_at ?? '',
  };
}

/** spec 2 §2 environment detail: the stats only GET /accounts/:id carries. */
export interface EnvironmentDetail extends Environment {
  containerCount: number;
  appContainerCount: number;
  databaseContainerCount: number;
  domainCount: number;
  diskGb: number;
  backupGb: number;
}

export function fromEnvironmentDetailHal(environment: EnvironmentHal): EnvironmentDetail {
  return {
    ...fromEnvironmentHal(environment),
    containerCount: environment.container_count ?? 0,
    appContainerCount: environment.app_container_count ?? 0,
    databaseContainerCount: environment.database_container_count ?? 0,
    domainCount: environment.domain_count ?? 0,
    diskGb: environment.total_disk_size ?? 0,
    backupGb: environment.total_backup_size ?? 0,
  };
}

/** spec 3 §5: environments are searched by handle or id, case-insensitively. */
export function matchesEnvironmentSearch(
  environment: Pick<Environment, 'handle' | 'id'>,
  search: string,
): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return environment.handle.toLowerCase().includes(needle) || environment.id.toLowerCase().includes(needle);
}
