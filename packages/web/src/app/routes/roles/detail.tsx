import {
  isRoleEditable,
  isRoleListed,
  type PermissionCellState,
  ROLE_TYPE_LABELS,
  roleMembersDenial,
  roleTakesEnvironmentPermissions,
  type Scope,
  scimMessages,
  scopeDenial,
  toastMessages,
} from '@berth/core';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { type TabLink, TabNav } from '../../../components/ui/tabs.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useCreatePermission } from '../../../features/environments/api/use-create-permission.ts';
import { useDeletePermission } from '../../../features/environments/api/use-delete-permission.ts';
import { useAddRoleMember } from '../../../features/roles/api/use-add-role-member.ts';
import { useDeleteRole } from '../../../features/roles/api/use-delete-role.ts';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { useRemoveRoleMember } from '../../../features/roles/api/use-remove-role-member.ts';
import { useRenameRole } from '../../../features/roles/api/use-rename-role.ts';
import { useRoleMemberships } from '../../../features/roles/api/use-role-memberships.ts';
import { useSetRoleAdmin } from '../../../features/roles/api/use-set-role-admin.ts';
import { DeleteRole } from '../../../features/roles/components/delete-role.tsx';
import { PermissionMatrix } from '../../../features/roles/components/permission-matrix.tsx';
import { RenameRoleForm } from '../../../features/roles/components/rename-role-form.tsx';
import { type RoleMemberRow, RoleMembers } from '../../../features/roles/components/role-members.tsx';
import { useOrganizationUsers } from '../../../features/users/api/use-organization-users.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { roleAdminIds } from '../../../resources/memberships/membership.hal.ts';
import type { Role } from '../../../resources/roles/role.hal.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §8 provisioning notice. */
const PROVISIONED_ROLE = scimMessages.roleLocked;

const TABS = [
  ['members', 'Members'],
  ['environments', 'Environments'],
  ['settings', 'Settings'],
] as const;
type RoleTab = (typeof TABS)[number][0];

/** spec 1 §6: Members, plus Environments and Settings unless the role is owner, platform_owner or billing_owner. */
function roleTabs(role: Pick<Role, 'type'>): RoleTab[] {
  return roleTakesEnvironmentPermissions(role.type) ? TABS.map(([tab]) => tab) : ['members'];
}

/** The caller's standing towards one role: are they its admin, and what may they do to it? */
function useRoleStanding(role: Role) {
  const { actor, organization, user } = useConsoleContext();
  const denialOf = useActionDenials();
  const memberships = useOrganizationMemberships(organization?.id ?? null);
  const isRoleAdmin = roleAdminIds(memberships.data ?? [], user?.id ?? '').has(role.id);
  return {
    actor,
    denialOf,
    memberships: memberships.data ?? [],
    isRoleAdmin,
    // Until the memberships are in, a role admin would briefly look like a stranger.
    pending: memberships.isPending,
    error: memberships.error,
  };
}

function RoleDetailRoute() {
  const { id = '', tab } = useParams();
  const location = useLocation();
  const { organization } = useConsoleContext();
  const roles = useOrganizationRoles(organization?.id ?? null);

  // The members tab is the default: /roles/{id} shows it under its own URL.
  if (!tab) return <Navigate replace to={`${to.role(id, 'members')}${location.search}`} />;
  return (
    <QueryState
      query={roles}
      loadingLabel="Loading role"
      errorHeader={<PageHeader title="Role" />}
      notFoundBack={{ label: 'Roles', to: paths.teamRoles }}
    >
      {(data) => <ListedRole roles={data} id={id} tab={tab} />}
    </QueryState>
  );
}

/** The role of the organization's list with this id, on one of its tabs. */
function ListedRole({ roles, id, tab }: { roles: Role[]; id: string; tab: string }) {
  const { actor } = useConsoleContext();
  const role = roles.find((item) => item.id === id && isRoleListed(actor, item.type));
  if (!role) {
    return (
      <>
        <PageHeader title="Role" />
        <Banner variant="warning" actions={<Link to={paths.teamRoles}>Back to Roles</Link>}>
          This role does not exist in the selected organization.
        </Banner>
      </>
    );
  }
  const tabs = roleTabs(role);
  // An unknown sub-path is Page Not Found as everywhere; a tab owner-type roles do not have (spec 1 §6)
  // leads to their one tab, Members.
  if (!TABS.some(([key]) => key === tab)) return <PageNotFound />;
  if (!(tabs as string[]).includes(tab)) return <Navigate replace to={to.role(role.id, 'members')} />;
  return <RolePage role={role} tab={tab as RoleTab} tabs={tabs} />;
}

function RolePage({ role, tab, tabs }: { role: Role; tab: RoleTab; tabs: RoleTab[] }) {
  const forInvite = new URLSearchParams(useLocation().search).get('next') === 'invite';
  const links: TabLink[] = TABS.filter(([key]) => tabs.includes(key)).map(([key, label]) => ({
    label,
    to: to.role(role.id, key),
  }));
  let body: ReactNode;
  switch (tab) {
    case 'members':
      body = <MembersTab role={role} />;
      break;
    case 'environments':
      body = <EnvironmentsTab role={role} />;
      break;
    case 'settings':
      body = <SettingsTab role={role} />;
      break;
  }
  return (
    <>
      <PageHeader
        title={role.name}
        description={
          <>
            {ROLE_TYPE_LABELS[role.type]} · <Link to={paths.teamRoles}>All roles</Link>
          </>
        }
      />
      {role.scimCreated ? <Banner variant="info">{PROVISIONED_ROLE}</Banner> : null}
      {forInvite ? (
        <Banner
          variant="info"
          title="Then invite"
          actions={
            <Link to={`${paths.teamInvite}?role_id=${encodeURIComponent(role.id)}`}>Continue to Invite</Link>
          }
        >
          Choose what {role.name} may do on each environment, then continue to invite someone into it.
        </Banner>
      ) : null}
      <TabNav label="Role sections" tabs={links} />
      {body}
    </>
  );
}

function MembersTab({ role }: { role: Role }) {
  const { organization } = useConsoleContext();
  const { actor, memberships: organizationMemberships, isRoleAdmin, pending, error } = useRoleStanding(role);
  const memberships = useRoleMemberships(role.id);
  const users = useOrganizationUsers(organization?.id ?? null);
  const add = useAddRoleMember(role.id);
  const remove = useRemoveRoleMember();
  const setAdmin = useSetRoleAdmin();

  const failure = memberships.error ?? error;
  if (failure) return <Banner variant="error">Error: {failure.message}</Banner>;
  if (!memberships.data || users.isPending || pending) return <Spinner label="Loading members" />;

  const byId = new Map((users.data ?? []).map((user) => [user.id, user]));
  const rolesHeld = new Map<string, number>();
  for (const membership of organizationMemberships) {
    rolesHeld.set(membership.userId, (rolesHeld.get(membership.userId) ?? 0) + 1);
  }
  const members: RoleMemberRow[] = memberships.data.map((membership) => {
    const user = byId.get(membership.userId);
    return {
      membershipId: membership.id,
      userId: membership.userId,
      name: user?.name ?? membership.userId,
      email: user?.email ?? '',
      privileged: membership.privileged,
      managed: !!user?.externalId,
      // spec 1 §4: a member's last role stays (the server counts the roles the caller sees, as here).
      lastRole: (rolesHeld.get(membership.userId) ?? 0) <= 1,
    };
  });
  const holders = new Set(members.map((member) => member.userId));
  const candidates = (users.data ?? [])
    .filter((user) => !holders.has(user.id))
    .map((user) => ({ id: user.id, name: user.name, email: user.email, managed: !!user.externalId }));

  return (
    <RoleMembers
      roleName={role.name}
      roleManaged={role.scimCreated}
      members={members}
      candidates={candidates}
      denial={roleMembersDenial(actor, { type: role.type, isRoleAdmin })}
      onAdd={(userId) => add.mutateAsync(userId)}
      onRemove={(membershipId) => remove.mutateAsync(membershipId)}
      onSetRoleAdmin={(membershipId, privileged) => setAdmin.mutateAsync({ membershipId, privileged })}
    />
  );
}

function EnvironmentsTab({ role }: { role: Role }) {
  const { environments, resources } = useConsoleContext();
  const { actor, denialOf, isRoleAdmin, pending, error } = useRoleStanding(role);
  const grant = useCreatePermission();
  const revoke = useDeletePermission();

  if (resources.status === 'error') return <Banner variant="error">Error: {resources.message}</Banner>;
  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  if (resources.status !== 'success' || pending) return <Spinner label="Loading environments" />;

  const cellDenial = (environmentId: string, scope: Scope, state: PermissionCellState): string | null => {
    // A denied cell grants a permission, any other revokes one; the catalog gives both the same rule.
    const manageDenial = denialOf(state === 'denied' ? 'permission.grant' : 'permission.revoke', {
      isRoleAdmin,
    });
    if (manageDenial) return manageDenial;
    if (role.scimCreated) return PROVISIONED_ROLE;
    // A role admin may grant only the scopes they hold on that environment (the server enforces the same).
    // This is a limit on the scope being granted, not an action of the catalog, so core's scope rule
    // answers it (owners hold every scope, so it never denies them).
    if (state === 'denied') return scopeDenial(actor, scope, environmentId);
    return null;
  };

  return (
    <PermissionMatrix
      roleName={role.name}
      roleType={role.type}
      environments={environments.map((environment) => ({
        id: environment.id,
        handle: environment.handle,
        permissions: environment.permissions
          .filter((permission) => permission.roleId === role.id)
          .map((permission) => ({ id: permission.id, scope: permission.scope })),
      }))}
      cellDenial={cellDenial}
      onGrant={(environmentId, scope) => grant.mutateAsync({ environmentId, roleId: role.id, scope })}
      onRevoke={(permissionId) => revoke.mutateAsync(permissionId)}
    />
  );
}

function SettingsTab({ role }: { role: Role }) {
  const navigate = useNavigate();
  const { denialOf, isRoleAdmin, pending, error } = useRoleStanding(role);
  const rename = useRenameRole(role.id);
  const remove = useDeleteRole(role.id);
  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  if (pending) return <Spinner label="Loading role settings" />;
  const denial = denialOf('role.rename', { isRoleAdmin }) ?? (isRoleEditable(role) ? null : PROVISIONED_ROLE);
  // Deleting drops the permissions owners gave the role, so it is theirs alone (the catalog's role.delete).
  const deleteDenial = denialOf('role.delete') ?? denial;
  return (
    <div className="section-stack">
      <RenameRoleForm
        key={role.name}
        currentName={role.name}
        denial={denial}
        onRename={async (name) => {
          await rename.mutateAsync(name);
          showToast(toastMessages.saved);
        }}
      />
      <DeleteRole
        name={role.name}
        denial={deleteDenial}
        onDelete={async () => {
          await remove.mutateAsync();
          showToast(toastMessages.success);
          navigate(paths.teamRoles, { replace: true });
        }}
      />
    </div>
  );
}

export { RoleDetailRoute as Component };
