import { toastMessages } from '@berth/core';
import { useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { useUpdateOrganization } from '../../../features/organizations/api/use-update-organization.ts';
import { DeleteAccount } from '../../../features/organizations/components/delete-account.tsx';
import { OrganizationSettingsForm } from '../../../features/organizations/components/organization-settings-form.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /settings/team/contacts: organization settings and contacts, with Delete Account. Everyone
 * may read them; spec 1 §6 leaves changes (and the deletion request) to Account Owners, so for anyone
 * else the form is read-only and the buttons carry the reason.
 */
function OrganizationSettingsRoute() {
  const { organization, user, stacks } = useConsoleContext();
  const organizationId = organization?.id ?? null;
  const update = useUpdateOrganization(organizationId ?? '');
  // Loaded at start-up already (StartupLists): read from the cache here.
  const stackCosts = useCosts(organizationId, 'stacks');
  const denial = useActionDenial('organization.update');

  // spec 1 §4 "no stack has billable cost": a stack of the organization's own with a cost above zero.
  const billableStacks = useMemo(() => {
    if (!stackCosts.data) return null;
    const costs = stackCosts.data;
    return stacks
      .filter((stack) => stack.organizationId === organizationId && (costs.get(stack.id) ?? 0) > 0)
      .map((stack) => stack.name);
  }, [stackCosts.data, stacks, organizationId]);

  return (
    <>
      <PageHeader
        title="Organization Settings"
        description={organization ? `The contact details of ${organization.name}` : undefined}
      />
      {!organization ? (
        <Banner variant="warning">Choose or create an organization first.</Banner>
      ) : (
        <div className="section-stack">
          <div className="card card-body form-card">
            <OrganizationSettingsForm
              key={organization.id}
              organization={organization}
              denial={denial}
              onSubmit={async (values) => {
                await update.mutateAsync(values);
                showToast(toastMessages.saved);
              }}
            />
          </div>
          {stackCosts.error ? <Banner variant="error">{stackCosts.error.message}</Banner> : null}
          <div className="form-card">
            <DeleteAccount
              key={organization.id}
              organization={organization}
              requestedBy={{ name: user?.name ?? '', email: user?.email ?? '' }}
              billableStacks={billableStacks}
              denial={denial}
            />
          </div>
        </div>
      )}
    </>
  );
}

export { OrganizationSettingsRoute as Component };
