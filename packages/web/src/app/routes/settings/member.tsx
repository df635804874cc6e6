import {
  compareRoles,
  isOwner,
  isRoleListed,
  permissionMessages,
  roleMembersDenial,
  roleSelectionChange,
  scimMessages,
  toastMessages,
} from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useUpdateMemberRoles } from '../../../features/members/api/update-member-roles.ts';
import { MemberRolesForm, type RoleChoice } from '../../../features/members/components/member-roles-form.tsx';
import { ResetTwoFactor } from '../../../features/members/components/reset-two-factor.tsx';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { useRoleManagement } from '../../../features/roles/api/use-role-management.ts';
import { useOrganizationUsers } from '../../../features/users/api/use-organization-users.ts';
import { paths } from '../../../lib/paths.ts';
import { roleKeys } from '../../../resources/roles/role-keys.ts';
import { userKeys } from '../../../resources/users/user-keys.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2 /settings/team/members/{id}: the member's roles, as checkboxes (spec 1 §4 Role editing). */
function MemberRoute() {
  const { id = '' } = useParams();
  const { organization, actor, user } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const users = useOrganizationUsers(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const roles = useOrganizationRoles(organizationId);
  const { adminRoleIds } = useRoleManagement(organizationId, actor, user?.id ?? '');
  const update = useUpdateMemberRoles();
  const queryClient = useQueryClient();

  const member = users.data?.find((candidate) => candidate.id === id) ?? null;
  const membershipByRole = useMemo(
    () =>
      new Map(
        (memberships.data ?? [])
          .filter((membership) => membership.userId === id)
          .map((membership) => [membership.roleId, membership.id]),
      ),
    [memberships.data, id],
  );
  const memberRoleIds = useMemo(() => new Set(membershipByRole.keys()), [membershipByRole]);

  const choices = useMemo<RoleChoice[]>(() => {
    return (roles.data ?? [])
      .filter((role) => isRoleListed(actor, role.type))
      .sort(compareRoles)
      .map((role) => ({
        id: role.id,
        name: role.name,
        lockedReason:
          roleMembersDenial(actor, { type: role.type, isRoleAdmin: adminRoleIds.has(role.id) }) ??
          // spec 1 §6: managed users cannot be added to or removed from managed roles.
          (member?.externalId && role.scimCreated
            ? memberRoleIds.has(role.id)
              ? scimMessages.cannotRemove
              : scimMessages.cannotAdd
            : null),
      }));
  }, [roles.data, adminRoleIds, actor, member?.externalId, memberRoleIds]);

  const saveDenial = choices.some((choice) => choice.lockedReason === null)
    ? null
    : permissionMessages.roleManagement;

  const save = async (chosen: ReadonlySet<string>) => {
    const { added, removed } = roleSelectionChange(memberRoleIds, chosen);
    try {
      await update.mutateAsync({
        userId: id,
        addRoleIds: added,
        removeMembershipIds: removed.flatMap((roleId) => membershipByRole.get(roleId) ?? []),
      });
    } finally {
      // Some calls may have gone through even when others failed.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: roleKeys.all }),
        queryClient.invalidateQueries({ queryKey: userKeys.all }),
      ]);
    }
    showToast(toastMessages.userRolesUpdated);
  };

  const loading = users.isPending || memberships.isPending || roles.isPending;
  const failure = users.error ?? memberships.error ?? roles.error;
  return (
    <>
      <p>
        <Link to={paths.teamMembers}>← Members</Link>
      </p>
      <PageHeader title={member ? member.name || member.email : 'Edit member'} description={member?.email} />
      {/* spec 1 §8: the notice that the user is managed via provisioning. */}
      {member?.externalId ? <Banner variant="info">{scimMessages.userLocked}</Banner> : null}
      {failure ? (
        <Banner variant="error">{failure.message}</Banner>
      ) : loading ? (
        <Spinner label="Loading the member" />
      ) : !member ? (
        <Banner variant="warning">
          This user is not a member of {organization?.name ?? 'the organization'}.
        </Banner>
      ) : (
        <div className="card card-body">
          {/* Keyed on the member only: the reload after a save must not remount the form, or the joined
              failures of a partly failed save (spec 1 §8) would vanish with it. */}
          <MemberRolesForm
            key={member.id}
            roles={choices}
            memberRoleIds={memberRoleIds}
            saveDenial={saveDenial}
            onSave={save}
          />
        </div>
      )}
      {/* spec 1 §6: only organization owners reset another member's 2FA. */}
      {member?.otpEnabled && member.id !== user?.id ? (
        <ResetTwoFactor userId={member.id} denial={isOwner(actor) ? null : permissionMessages.ownerOnly} />
      ) : null}
    </>
  );
}

export { MemberRoute as Component };
