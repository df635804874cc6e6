import { useNavigate } from 'react-router';
import { useCreateOrganization } from '../../../features/organizations/api/use-create-organization.ts';
import { CreateOrganizationForm } from '../../../features/organizations/components/create-organization-form.tsx';
import { useSelectOrganization } from '../../../features/users/api/use-select-organization.ts';
import { paths } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §2 "Create Organization": create it, select it, then on to the environments. */
function CreateOrganizationRoute() {
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const select = useSelectOrganization();

  const submit = async (name: string) => {
    const organization = await create.mutateAsync(name);
    await select.mutateAsync(organization.id);
    // Home, where everyone with an organization lands (the environments with the home flag off).
    navigate(paths.root);
  };

  return (
    <AuthLayout
      title="Create Organization"
      subtitle="An organization holds your team, roles, stacks and environments."
      footer={
        <button type="button" className="link-button" onClick={() => navigate(-1)}>
          Cancel
        </button>
      }
    >
      <CreateOrganizationForm onSubmit={submit} />
    </AuthLayout>
  );
}

export { CreateOrganizationRoute as Component };
