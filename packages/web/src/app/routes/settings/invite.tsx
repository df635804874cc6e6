import {
  compareRoles,
  type InviteFormValues,
  permissionMessages,
  rolePlainSummary,
  toastMessages,
} from '@berth/core';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useCreateInvitation } from '../../../features/invitations/api/use-create-invitation.ts';
import { InviteForm } from '../../../features/invitations/components/invite-form.tsx';
import { useRoleEnvironmentAccess } from '../../../features/roles/api/use-role-environment-access.ts';
import { useRoleManagement } from '../../../features/roles/api/use-role-management.ts';
import { paths } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
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
  const management = useRoleManagement(organizationId, actor, user?.id ?? '');
  const create = useCreateInvitation();
  const createDenial = useActionDenial('role.create');

  const roles = useMemo(() => [...management.invitableRoles].sort(compareRoles), [management.invitableRoles]);
  const options = useMemo(() => roles.map((role) => ({ id: role.id, name: role.name })), [roles]);

  const requested = params.get('role_id') ?? '';
  const defaultRoleId = options.some((option) => option.id === requested) ? requested : '';

  // Issue 41: the summary of the chosen role comes from the server's answer of where it reaches, not
  // from the environments this console has loaded (those the inviter sees, and only once they are in).
  const [chosenId, setChosenId] = useState('');
  const chosen = roles.find((role) => role.id === chosenId);
  // Only a platform user's summary reads its environments; the other types are summed up by type.
  const perEnvironment = chosen?.type === 'platform_user';
  const reach = useRoleEnvironmentAccess(perEnvironment ? chosen.id : '');
  const roleSummary = !chosen
    ? undefined
    : !perEnvironment
      ? rolePlainSummary(chosen.type, []).join(' ')
      : reach.data
        ? rolePlainSummary(chosen.type, reach.data.environments, reach.data.unnamed).join(' ')
        : reach.error
          ? `Could not read what ${chosen.name} reaches: ${reach.error.message}`
          : `Reading what ${chosen.name} reaches…`;

  const submit = async ({ email, roleId }: InviteFormValues) => {
    await create.mutateAsync({ email, roleId });
    showToast(toastMessages.invitationSent(email));
    navigate(paths.teamPendingInvites);
  };

  const loading = management.isPending;
  const failure = management.error;
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
          <InviteForm
            key={defaultRoleId}
            roles={options}
            defaultRoleId={defaultRoleId}
            roleSummary={roleSummary}
            onRoleChange={setChosenId}
            onSubmit={submit}
          />
          {/* Issue 20: a role scoped to some environments, made on the way (its page leads back here). */}
          {createDenial === null ? (
            <p className="field-hint">
              None of these fits? <Link to={`${paths.createRole}?next=invite`}>New role…</Link>
            </p>
          ) : null}
        </div>
      )}
    </>
  );
}

export { InviteRoute as Component };
