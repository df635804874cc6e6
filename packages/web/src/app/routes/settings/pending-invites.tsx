import {
  invitableRoles,
  invitationMessages,
  isRoleListed,
  permissionMessages,
  roleMembersDenial,
} from '@berth/core';
import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useOrganizationInvitations } from '../../../features/invitations/api/use-organization-invitations.ts';
import { useResendInvitation } from '../../../features/invitations/api/use-resend-invitation.ts';
import { useRevokeInvitation } from '../../../features/invitations/api/use-revoke-invitation.ts';
import {
  type PendingInvitationRow,
  PendingInvitationsTable,
} from '../../../features/invitations/components/pending-invitations-table.tsx';
import { roleAdminIds } from '../../../features/roles/api/membership.hal.ts';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { paths } from '../../paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2 /settings/team/pending-invites: the invitations not yet accepted, with Resend and Revoke. */
function PendingInvitesRoute() {
  const { organization, actor, user } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const invitations = useOrganizationInvitations(organizationId);
  const roles = useOrganizationRoles(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [failure, setFailure] = useState<string | null>(null);

  const rows = useMemo<PendingInvitationRow[]>(() => {
    const admin = roleAdminIds(memberships.data ?? [], user?.id ?? '');
    const types = new Map((roles.data ?? []).map((role) => [role.id, role.type]));
    return (invitations.data ?? [])
      .filter((invitation) => {
        const type = invitation.roleId ? types.get(invitation.roleId) : undefined;
        return type === undefined || isRoleListed(actor, type);
      })
      .map((invitation) => {
        const type = invitation.roleId ? types.get(invitation.roleId) : undefined;
        return {
          ...invitation,
          manageDenial: type
            ? roleMembersDenial(actor, { type, isRoleAdmin: admin.has(invitation.roleId ?? '') })
            : permissionMessages.roleManagement,
        };
      });
  }, [invitations.data, roles.data, memberships.data, user?.id, actor]);

  const canInvite =
    invitableRoles(actor, roles.data ?? [], roleAdminIds(memberships.data ?? [], user?.id ?? '')).length > 0;

  const act = async (action: () => Promise<unknown>, success: string) => {
    setFailure(null);
    try {
      await action();
      showToast(success);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };

  return (
    <>
      <PageHeader
        title="Pending Invites"
        description={organization ? `Invitations to ${organization.name} not accepted yet` : undefined}
        actions={
          canInvite ? (
            <ButtonLink to={paths.teamInvite}>Invite</ButtonLink>
          ) : (
            <ScopedButton denial={permissionMessages.roleManagement}>Invite</ScopedButton>
          )
        }
      />
      {!organization ? <Banner variant="warning">Choose or create an organization first.</Banner> : null}
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <PendingInvitationsTable
        rows={rows}
        isLoading={organizationId !== null && (invitations.isPending || roles.isPending)}
        error={invitations.error}
        onResend={(invitation) => act(() => resend.mutateAsync(invitation.id), invitationMessages.resent)}
        onRevoke={(invitation) => act(() => revoke.mutateAsync(invitation.id), invitationMessages.revoked)}
      />
    </>
  );
}

export { PendingInvitesRoute as Component };
