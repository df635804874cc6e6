import {
  compareRoles,
  emptyStateMessages,
  isOwner,
  isRoleListed,
  ROLES_CSV_COLUMNS,
  type RoleType,
  roleMatchesFilters,
  rolesCsvRows,
  scopesByEnvironment,
  toCsv,
} from '@berth/core';
import { useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { RoleFilters, useRoleFilters } from '../../../features/roles/components/role-filters.tsx';
import { type RoleOverviewRow, RolesTable } from '../../../features/roles/components/roles-table.tsx';
import { useOrganizationUsers } from '../../../features/users/api/use-organization-users.ts';
import { downloadTextFile } from '../../../lib/download.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { EnvironmentPermission } from '../../../resources/environments/environment.hal.ts';
import type { Membership } from '../../../resources/memberships/membership.hal.ts';
import type { Role } from '../../../resources/roles/role.hal.ts';
import { icons } from '../../shell/icons.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The overview's Environments column: what the role reaches. */
function accessSummary(
  type: RoleType,
  roleId: string,
  permissions: readonly EnvironmentPermission[],
): string {
  if (isOwner({ roleTypes: [type] })) return 'All environments';
  if (type === 'billing_owner') return 'Billing only';
  const byEnvironment = scopesByEnvironment(permissions, roleId);
  if (byEnvironment.size === 0) return emptyStateMessages.noPermissions;
  const count = [...byEnvironment.values()].reduce((sum, scopes) => sum + scopes.length, 0);
  return `${plural(byEnvironment.size, 'environment')}, ${plural(count, 'permission')}`;
}

function membersByRole(memberships: readonly Membership[]): Map<string, string[]> {
  const byRole = new Map<string, string[]>();
  for (const membership of memberships) {
    byRole.set(membership.roleId, [...(byRole.get(membership.roleId) ?? []), membership.userId]);
  }
  return byRole;
}

const roleHref = (id: string) => to.role(id);

/** spec 1 §2 /settings/team/roles: the roles overview, its filters, the Roles CSV and New Role. */
function RolesOverviewRoute() {
  const { actor, organization, environments } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const roles = useOrganizationRoles(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const users = useOrganizationUsers(organizationId);
  const filters = useRoleFilters();
  const createDenial = useActionDenial('role.create');

  const permissions = useMemo(
    () => environments.flatMap((environment) => environment.permissions),
    [environments],
  );
  const listed = useMemo(
    () => (roles.data ?? []).filter((role) => isRoleListed(actor, role.type)).sort(compareRoles),
    [roles.data, actor],
  );
  const members = useMemo(() => membersByRole(memberships.data ?? []), [memberships.data]);
  const shown: Role[] = listed.filter((role) =>
    roleMatchesFilters(role, filters, members.get(role.id) ?? [], permissions),
  );
  const rows: RoleOverviewRow[] = shown.map((role) => ({
    role,
    memberCount: members.get(role.id)?.length ?? 0,
    access: accessSummary(role.type, role.id, permissions),
  }));

  const exportCsv = () => {
    const emails = new Map((users.data ?? []).map((user) => [user.id, user.email]));
    const usersByRole = new Map(
      [...members].map(([roleId, userIds]) => [roleId, userIds.map((id) => emails.get(id) ?? id)]),
    );
    const csv = toCsv(
      ROLES_CSV_COLUMNS,
      rolesCsvRows({
        organizationName: organization?.name ?? '',
        roles: shown,
        usersByRole,
        environments,
        permissions,
      }),
    );
    downloadTextFile('roles.csv', csv);
  };

  const error = roles.error ?? memberships.error ?? null;

  return (
    <>
      <PageHeader
        title="Roles"
        description="Roles give their members access to the organization's environments."
        actions={
          createDenial ? (
            <ScopedButton denial={createDenial} icon={icons.plus}>
              New Role
            </ScopedButton>
          ) : (
            <ButtonLink to={paths.createRole} icon={icons.plus}>
              New Role
            </ButtonLink>
          )
        }
      />
      {users.isError ? <Banner variant="error">Error: {users.error.message}</Banner> : null}
      <RoleFilters
        roles={listed.map((role) => ({ id: role.id, label: role.name }))}
        users={(users.data ?? []).map((user) => ({ id: user.id, label: user.name || user.email }))}
        environments={environments.map((environment) => ({ id: environment.id, label: environment.handle }))}
      />
      <RolesTable
        rows={rows}
        roleHref={roleHref}
        isLoading={roles.isPending || memberships.isPending}
        error={error}
        toolbar={
          <Button
            size="sm"
            variant="secondary"
            disabled={!roles.data || !memberships.data}
            onClick={exportCsv}
          >
            Export CSV
          </Button>
        }
      />
    </>
  );
}

export { RolesOverviewRoute as Component };
