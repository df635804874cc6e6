import {
  compareRoles,
  type InviteFormValues,
  invitableRoles,
  invitationMessages,
  permissionMessages,
} from '@berth/core';
import { useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useCreateInvitation } from '../../../features/invitations/api/use-create-invitation.ts';
import { InviteForm } from '../../../features/invitations/components/invite-form.tsx';
import { roleAdminIds } from '../../../features/roles/api/membership.hal.ts';
import { useOrganizationMemberships } from '../../../features/roles/api/use-organization-memberships.ts';
import { useOrganizationRoles } from '../../../features/roles/api/use-organization-roles.ts';
import { paths } from '../../paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /settings/team/invite: an address and a role among those the actor may manage; the mail goes
 * out and the pending invitations show it. `?role_id=` preselects a role (a role page may link here).
 */
function InviteRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { organization, actor, user } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const roles = useOrganizationRoles(organizationId);
  const memberships = useOrganizationMemberships(organizationId);
  const create = useCreateInvitation();

  const options = useMemo(() => {
    const admin = roleAdminIds(memberships.data ?? [], user?.id ?? '');
    return invitableRoles(actor, roles.data ?? [], admin)
      .sort(compareRoles)
      .map((role) => ({ id: role.id, name: role.name }));
  }, [roles.data, memberships.data, user?.id, actor]);

  const requested = params.get('role_id') ?? '';
  const defaultRoleId = options.some((option) => option.id === requested) ? requested : '';

  const submit = async ({ email, roleId }: InviteFormValues) => {
    await create.mutateAsync({ email, roleId });
    showToast(invitationMessages.sent(email));
    navigate(paths.teamPendingInvites);
  };

  const loading = roles.isPending || memberships.isPending;
  const failure = roles.error ?? memberships.error;
  return (
    <>
      <PageHeader
        title="Invite"
        description={
          organization
            ? `Invite someone to ${organization.name}. They get an email with a link to join.`
            : undefined
        }
      />
      {!organization ? (
        <Banner variant="warning">Choose or create an organization first.</Banner>
      ) : failure ? (
        <Banner variant="error">{failure.message}</Banner>
      ) : loading ? (
        <Spinner label="Loading roles" />
      ) : options.length === 0 ? (
        <Banner variant="warning">{permissionMessages.roleManagement}</Banner>
      ) : (
        <div className="card card-body form-card">
          <InviteForm key={defaultRoleId} roles={options} defaultRoleId={defaultRoleId} onSubmit={submit} />
        </div>
      )}
    </>
  );
}

export { InviteRoute as Component };
