import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';

/** spec 3 §2 /activity: the organization's operations of the last 2 weeks, filters in the query string. */
function ActivityRoute() {
  const { organization } = useConsoleContext();
  return (
    <>
      <PageHeader
        title="Activity"
        description={organization ? `Operations in ${organization.name}` : 'Choose an organization first.'}
      />
      <ActivityTable
        listPath={organization ? `/organizations/${organization.id}/operations` : null}
        resourceLink={(operation) => <OperationResourceLink operation={operation} />}
      />
    </>
  );
}

export { ActivityRoute as Component };
