import type { EnvironmentResource, PermissionResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { environments, permissions } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type EnvironmentRow = typeof environments.$inferSelect;
export type PermissionRow = typeof permissions.$inferSelect;

export interface EnvironmentCounts {
  apps: number;
  databases: number;
}

export function toPermissionHal(permission: PermissionRow, urls: FamilyUrls): PermissionResource {
  return {
    id: String(permission.id),
    _type: 'permission' as const,
    scope: permission.scope,
    created_at: iso(permission.createdAt),
    updated_at: iso(permission.updatedAt),
    _links: links({
      self: `${urls.api}/permissions/${permission.id}`,
      account: `${urls.api}/accounts/${permission.environmentId}`,
      role: `${urls.auth}/roles/${permission.roleId}`,
    }),
  };
}

/** An environment is an `account` on the wire; permissions stay embedded even with no_embed (contract §4.3). */
export interface EnvironmentStats {
  containers: number;
  appContainers: number;
  databaseContainers: number;
  domains: number;
  diskGb: number;
  backupGb: number;
}

export function toEnvironmentHal(
  environment: EnvironmentRow,
  counts: EnvironmentCounts,
  environmentPermissions: PermissionRow[],
  urls: FamilyUrls,
  stats?: EnvironmentStats,
): EnvironmentResource {
  return {
    id: String(environment.id),
    _type: 'account' as const,
    handle: environment.handle,
    organization_id: environment.organizationId,
    type: environment.type,
    activated: environment.activated,
    onboarding_status: environment.onboardingStatus,
    sweetness_stack: '',
    total_app_count: counts.apps,
    total_database_count: counts.databases,
    ...(stats
      ? {
          container_count: stats.containers,
          app_container_count: stats.appContainers,
          database_container_count: stats.databaseContainers,
          domain_count: stats.domains,
          total_disk_size: stats.diskGb,
          total_backup_size: stats.backupGb,
        }
      : {}),
    created_at: iso(environment.createdAt),
    updated_at: iso(environment.updatedAt),
    _links: links({
      self: `${urls.api}/accounts/${environment.id}`,
      stack: `${urls.api}/stacks/${environment.stackId}`,
      organization: `${urls.auth}/organizations/${environment.organizationId}`,
      apps: `${urls.api}/accounts/${environment.id}/apps`,
      databases: `${urls.api}/accounts/${environment.id}/databases`,
      operations: `${urls.api}/accounts/${environment.id}/operations`,
      permissions: `${urls.api}/accounts/${environment.id}/permissions`,
    }),
    _embedded: { permissions: environmentPermissions.map((p) => toPermissionHal(p, urls)) },
  };
}
