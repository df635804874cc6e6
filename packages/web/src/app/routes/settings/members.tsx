import { isRoleListed, memberRemovalDenial, membersCsv, permissionMessages } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { type MemberRow, MembersTable } from '../../../features/members/components/members-table.tsx';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { useRoleManagement } from '../../../features/roles/api/use-role-management.ts';
import { useOrganizationUsers } from '../../../features/users/api/use-organization-users.ts';
import { useRemoveOrganizationUser } from '../../../features/users/api/use-remove-organization-user.ts';
import { downloadTextFile } from '../../../lib/download.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { paths, to } from '../../../lib/paths.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2 /settings/team/members: the member list with CSV export, Invite and Remove. */
function MembersRoute() {
  const { organization, actor, user } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const users = useOrganizationUsers(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const roles = useOrganizationRoles(organizationId);
  const remove = useRemoveOrganizationUser(organizationId ?? '');
  const queryClient = useQueryClient();
  const [removeFailure, setRemoveFailure] = useState<string | null>(null);
  const ownId = user?.id ?? '';

  const listedRoles = useMemo(
    () => (roles.data ?? []).filter((role) => isRoleListed(actor, role.type)),
    [roles.data, actor],
  );

  const rows = useMemo<MemberRow[]>(() => {
    const roleNames = new Map(listedRoles.map((role) => [role.id, role.name]));
    const namesByUser = new Map<string, string[]>();
    for (const membership of memberships.data ?? []) {
      const name = roleNames.get(membership.roleId);
      if (name === undefined) continue;
      namesByUser.set(membership.userId, [...(namesByUser.get(membership.userId) ?? []), name]);
    }
    return (users.data ?? []).map((member) => ({
      id: member.id,
      name: member.name,
      email: member.email,
      verified: member.verified,
      otpEnabled: member.otpEnabled,
      roleNames: namesByUser.get(member.id) ?? [],
      editTo: to.teamMember(member.id),
      removeDenial: memberRemovalDenial(actor, {
        isSelf: member.id === ownId,
        provisioned: member.externalId !== null,
      }),
      provisioned: member.externalId !== null,
    }));
  }, [users.data, memberships.data, listedRoles, actor, ownId]);

  // spec 1 §6: inviting needs a role the actor may manage (owner, or that role's admin).
  const { canInvite } = useRoleManagement(organizationId, actor, ownId);

  const removeMember = async (member: MemberRow) => {
    setRemoveFailure(null);
    try {
      await remove.mutateAsync(member.id);
    } catch (error) {
      setRemoveFailure(messageOf(error));
    }
    await queryClient.invalidateQueries({ queryKey: roleKeys.all });
  };

  const loading = users.isPending || memberships.isPending || roles.isPending;
  return (
    <>
      <PageHeader
        title="Members"
        description={organization ? `The members of ${organization.name}` : undefined}
        actions={
          canInvite ? (
            <ButtonLink to={paths.teamInvite}>Invite</ButtonLink>
          ) : (
            <ScopedButton denial={permissionMessages.roleManagement}>Invite</ScopedButton>
          )
        }
      />
      {!organization ? <Banner variant="warning">Choose or create an organization first.</Banner> : null}
      {removeFailure ? <Banner variant="error">{removeFailure}</Banner> : null}
      <MembersTable
        rows={rows}
        isLoading={organizationId !== null && loading}
        error={users.error ?? memberships.error}
        onRemove={removeMember}
        toolbar={
          <Button
            size="sm"
            variant="secondary"
            disabled={loading || rows.length === 0}
            onClick={() => downloadTextFile('members.csv', membersCsv(rows))}
          >
            Export CSV
          </Button>
        }
      />
    </>
  );
}

export { MembersRoute as Component };
