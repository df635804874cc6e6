import { type EnvironmentResource, isScope, type PermissionResource, type Scope } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.1 permission (embedded in accounts): a role's scope on an environment. */
export interface EnvironmentPermission {
  id: string;
  scope: Scope;
  environmentId: string;
  roleId: string;
}

/** contract §4.3 account (an environment on the wire) as the console reads it. */
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

/** A permission with a scope the console does not know is left out. */
function fromPermissionResource(permission: PermissionResource): EnvironmentPermission | null {
  if (!isScope(permission.scope)) return null;
  return {
    id: idOf(permission),
    scope: permission.scope,
    environmentId: linkId(permission, 'account') ?? '',
    roleId: linkId(permission, 'role') ?? '',
  };
}

export function fromEnvironmentResource(environment: EnvironmentResource): Environment {
  return {
    id: idOf(environment),
    handle: environment.handle,
    organizationId: environment.organization_id,
    stackId: linkId(environment, 'stack'),
    type: environment.type,
    onboardingStatus: environment.onboarding_status,
    appCount: environment.total_app_count,
    databaseCount: environment.total_database_count,
    permissions: environment._embedded.permissions
      .map(fromPermissionResource)
      .filter((permission): permission is EnvironmentPermission => permission !== null),
    createdAt: environment.created_at,
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

/** The stats are sent only where the server computed them: a missing one reads as 0. */
export function fromEnvironmentDetailResource(environment: EnvironmentResource): EnvironmentDetail {
  return {
    ...fromEnvironmentResource(environment),
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
