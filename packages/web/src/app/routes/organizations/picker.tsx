import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { useOrganizations } from '../../../features/organizations/api/use-organizations.ts';
import { useReauthenticateOrganizations } from '../../../features/organizations/api/use-reauthenticate-organizations.ts';
import { OrganizationList } from '../../../features/organizations/components/organization-list.tsx';
import { useSelectOrganization } from '../../../features/users/api/use-select-organization.ts';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { paths } from '../../../lib/paths.ts';
import type { Organization } from '../../../resources/organizations/organization.hal.ts';
import { chooseOrganization } from '../../../resources/organizations/organization.hal.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { signInAgainTo } from '../../sso.ts';

/** spec 1 §2 "Choose Organization" (spec 3 §6: SSO badge; organizations needing a new login listed apart). */
function OrganizationPickerRoute() {
  const navigate = useNavigate();
  const user = useCurrentUser();
  const organizations = useOrganizations();
  const reauthenticate = useReauthenticateOrganizations();
  const select = useSelectOrganization();
  const [pendingId, setPendingId] = useState<string | null>(null);

  if (organizations.isError) {
    return (
      <AuthLayout title="Choose Organization">
        <Banner variant="error">Error: {organizations.error.message}</Banner>
      </AuthLayout>
    );
  }
  if (!organizations.data || !user.data) return <FullPageSpinner label="Loading organizations" />;

  const needingLogin = reauthenticate.data ?? [];
  const needingLoginIds = new Set(needingLogin.map((organization) => organization.id));
  const usable = organizations.data.filter((organization) => !needingLoginIds.has(organization.id));
  const current = chooseOrganization(usable, user.data.selectedOrganizationId);

  const choose = async (organization: Organization) => {
    setPendingId(organization.id);
    try {
      await select.mutateAsync(organization.id);
      // Home, where everyone with an organization lands (the environments with the home flag off).
      navigate(paths.root);
    } finally {
      setPendingId(null);
    }
  };

  return (
    <AuthLayout
      wide
      title="Choose Organization"
      subtitle="Pick the organization to work in. You can switch at any time from the side menu."
      footer={
        <div className="auth-links">
          <Link to={paths.organizationsCreate}>Create Organization</Link>
          <Link to={paths.logout}>Log out</Link>
        </div>
      }
    >
      {select.isError ? <Banner variant="error">{select.error.message}</Banner> : null}
      {usable.length === 0 && needingLogin.length === 0 ? (
        <EmptyState
          title="No organizations yet"
          description="You do not belong to an organization. Create one, or ask a teammate for an invitation."
        />
      ) : null}
      {usable.length ? (
        <OrganizationList
          label="Your organizations"
          organizations={usable}
          selectedId={current?.id ?? null}
          pendingId={pendingId}
          actionLabel="Select"
          onChoose={(organization) => void choose(organization)}
        />
      ) : null}
      {needingLogin.length ? (
        <section className="stack" aria-labelledby="reauthenticate-title">
          <h2 id="reauthenticate-title" className="section-title">
            Log in again to use
          </h2>
          <OrganizationList
            label="Organizations that require a new login"
            organizations={needingLogin}
            selectedId={null}
            pendingId={null}
            actionLabel="Log in to"
            // spec 3 §6: choosing an organization that enforces SSO goes to SSO login; others log in again.
            onChoose={(organization) => signInAgainTo(organization, navigate)}
          />
        </section>
      ) : null}
    </AuthLayout>
  );
}

export { OrganizationPickerRoute as Component };
