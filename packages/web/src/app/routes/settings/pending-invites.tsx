import { isRoleListed, permissionMessages, roleMembersDenial, toastMessages } from '@berth/core';
import { type ReactNode, useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { loadErrorText } from '../../../components/ui/data-table.tsx';
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
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { useRoleManagement } from '../../../features/roles/api/use-role-management.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { paths } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** Why a member who manages no role sees no invitations (spec 1 §6; the server answers them 403). */
export const PENDING_INVITES_DENIED = 'Only owners and role admins see pending invitations';

/** spec 1 §2 /settings/team/pending-invites: the invitations not yet accepted, with Resend and Revoke. */
function PendingInvitesRoute() {
  const { organization, actor, user } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const roles = useOrganizationRoles(organizationId);
  const management = useRoleManagement(organizationId, actor, user?.id ?? '');
  // Until the memberships are in, a role admin would look like a stranger: wait before asking.
  const allowed = !management.isPending && !management.error && management.managesAnyRole;
  const invitations = useOrganizationInvitations(organizationId, { enabled: allowed });
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const { adminRoleIds } = management;

  const rows = useMemo<PendingInvitationRow[]>(() => {
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
            ? roleMembersDenial(actor, { type, isRoleAdmin: adminRoleIds.has(invitation.roleId ?? '') })
            : permissionMessages.roleManagement,
        };
      });
  }, [invitations.data, roles.data, adminRoleIds, actor]);

  const act = async (action: () => Promise<unknown>, success: string) => {
    setFailure(null);
    try {
      await action();
      showToast(success);
    } catch (error) {
      setFailure(messageOf(error));
    }
  };

  // The server's 403 says the same as the rule: the memberships may be older than the answer.
  const denied =
    (!management.isPending && !management.error && !management.managesAnyRole) ||
    (isApiError(invitations.error) && invitations.error.status === 403);

  let body: ReactNode;
  if (!organization) {
    body = <Banner variant="warning">Choose or create an organization first.</Banner>;
  } else if (management.error) {
    body = <Banner variant="error">{loadErrorText(management.error.message)}</Banner>;
  } else if (denied) {
    body = (
      <Banner variant="warning" title={PENDING_INVITES_DENIED}>
        {permissionMessages.roleManagement}
      </Banner>
    );
  } else {
    body = (
      <PendingInvitationsTable
        rows={rows}
        isLoading={management.isPending || invitations.isPending}
        error={invitations.error}
        onResend={(invitation) =>
          act(() => resend.mutateAsync(invitation.id), toastMessages.invitationResent)
        }
        onRevoke={(invitation) =>
          act(() => revoke.mutateAsync(invitation.id), toastMessages.invitationRevoked)
        }
      />
    );
  }

  return (
    <>
      <PageHeader
        title="Pending Invites"
        description={organization ? `Invitations to ${organization.name} not accepted yet` : undefined}
        actions={
          management.canInvite ? (
            <ButtonLink to={paths.teamInvite}>Invite</ButtonLink>
          ) : (
            <ScopedButton denial={permissionMessages.roleManagement}>Invite</ScopedButton>
          )
        }
      />
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {body}
    </>
  );
}

export { PendingInvitesRoute as Component };
