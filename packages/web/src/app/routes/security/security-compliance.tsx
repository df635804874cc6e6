import { emptyStateMessages, permissionMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { SecurityDashboard } from '../../../features/security/components/security-dashboard.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * The sidebar's Security & Compliance (spec 3 §2, issue 38): the facts of one environment of the selected
 * organization at a time, among those the caller has Full Visibility on; `?environment_id=` picks it.
 */
function SecurityComplianceRoute() {
  const { environments } = useConsoleContext();
  const denialOf = useActionDenials();
  const [params, setParams] = useSearchParams();
  const readable = environments.filter((environment) => denialOf('security.read', environment.id) === null);
  const asked = params.get('environment_id');
  const chosen = readable.find((environment) => environment.id === asked) ?? readable[0];

  let body: ReactNode;
  if (environments.length === 0) {
    body = <EmptyState title={emptyStateMessages.noEnvironments} />;
  } else if (!chosen) {
    body = <EmptyState title={permissionMessages.fullVisibilityAnywhere} />;
  } else {
    body = (
      <>
        <div className="security-toolbar">
          <SelectField
            label="Environment"
            value={chosen.id}
            onChange={(event) => setParams({ environment_id: event.target.value }, { replace: true })}
            options={readable.map((environment) => ({ value: environment.id, label: environment.handle }))}
          />
          <Link to={to.environment(chosen.id, 'activity_reports')}>Activity reports of {chosen.handle}</Link>
        </div>
        <SecurityDashboard environmentId={chosen.id} />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title="Security & Compliance"
        description="What Berth knows of each environment's security: two-factor adoption, single sign-on, backups, encryption, endpoints and recent privileged changes."
      />
      {body}
    </>
  );
}

export { SecurityComplianceRoute as Component };
