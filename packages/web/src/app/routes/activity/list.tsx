import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import '../../../components/ui/resource-page.css';
import { AuditEventsTable } from '../../../features/audit-events/components/audit-events-table.tsx';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';

/**
 * spec 3 §2 /activity: the organization's operations of the last 2 weeks, filters in the query string;
 * issue 41 adds its audit events (members, roles, tokens, SSO…) as a second view. The two stay separate
 * lists, each server-paged on its own cursor, so both stay complete; `view=audit` picks the second.
 */
function ActivityRoute() {
  const { organization } = useConsoleContext();
  const [params] = useSearchParams();
  const audit = params.get('view') === 'audit';
  const tabs = [
    { label: 'Operations', search: '', active: !audit },
    { label: 'Audit events', search: '?view=audit', active: audit },
  ];
  return (
    <>
      <PageHeader
        title="Activity"
        description={
          organization
            ? `${audit ? 'Audit events' : 'Operations'} in ${organization.name}`
            : 'Choose an organization first.'
        }
      />
      <nav className="tab-nav" aria-label="Activity views">
        {tabs.map((tab) => (
          // A view change starts the other list at its first page with no filter of the one before.
          <Link
            key={tab.label}
            to={{ search: tab.search }}
            className={tab.active ? 'tab active' : 'tab'}
            aria-current={tab.active ? 'page' : undefined}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {audit ? (
        <AuditEventsTable organizationId={organization?.id ?? null} />
      ) : (
        <ActivityTable
          listPath={organization ? `/organizations/${organization.id}/operations` : null}
          resourceLink={(operation) => <OperationResourceLink operation={operation} />}
        />
      )}
    </>
  );
}

export { ActivityRoute as Component };
