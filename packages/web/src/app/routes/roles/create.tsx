import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useCreateRole } from '../../../features/roles/api/use-create-role.ts';
import { CreateRoleForm } from '../../../features/roles/components/create-role-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2 /settings/team/roles/create: name the role, create it, then open its page. */
function CreateRoleRoute() {
  const { organization } = useConsoleContext();
  // Without an organization the actor holds no role there, so this denies too.
  const denial = useActionDenial('role.create');
  const navigate = useNavigate();
  // Issue 20: come from Invite, the new role opens on its environments, with the way back to Invite.
  const forInvite = useSearchParams()[0].get('next') === 'invite';
  const create = useCreateRole(organization?.id ?? '');
  return (
    <>
      <PageHeader title="New Role" description="A new role starts with no members and no permissions." />
      <CreateRoleForm
        denial={denial}
        onCreate={async (name) => {
          const role = await create.mutateAsync(name);
          navigate(forInvite ? `${to.role(role.id, 'environments')}?next=invite` : to.role(role.id), {
            replace: true,
          });
        }}
      />
    </>
  );
}

export { CreateRoleRoute as Component };
