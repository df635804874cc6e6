import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import '../../../components/ui/resource-page.css';
import { AuditEventsTable } from '../../../features/audit-events/components/audit-events-table.tsx';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import { AllActivity } from './all-activity.tsx';

/**
 * spec 3 §2 /activity: the organization's operations of the last 2 weeks, filters in the query string;
 * issue 41 adds its audit events (members, roles, tokens, SSO…) as a second view (`view=audit`), and
 * both merged newest first as a third (`view=all`, all-activity.tsx); each list stays server-paged on its
 * own cursor, so every view is complete.
 */
function ActivityRoute() {
  const { organization } = useConsoleContext();
  const [params] = useSearchParams();
  const view = params.get('view');
  const audit = view === 'audit';
  const all = view === 'all';
  const tabs = [
    { label: 'Operations', search: '', active: !audit && !all },
    { label: 'Audit events', search: '?view=audit', active: audit },
    { label: 'All', search: '?view=all', active: all },
  ];
  const viewName = all ? 'Operations and audit events' : audit ? 'Audit events' : 'Operations';
  return (
    <>
      <PageHeader
        title="Activity"
        description={organization ? `${viewName} in ${organization.name}` : 'Choose an organization first.'}
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
      {all ? (
        <AllActivity organizationId={organization?.id ?? null} />
      ) : audit ? (
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
