import { useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useEndpoints } from '../../../features/endpoints/api/use-endpoints.ts';
import { EndpointsTable } from '../../../features/endpoints/components/endpoints-table.tsx';
import { useFailureDetail } from '../../../features/operations/components/use-failure-detail.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { useEndpointRows } from './endpoint-rows.ts';

/**
 * spec 2 §2 /endpoints: every endpoint of the organization, read from the start-up `/vhosts` list
 * (contract §7), which is not polled but refetched when revisited after 60 s (contract §1.13).
 */
function EndpointsRoute() {
  const { organization, environments } = useConsoleContext();
  const endpoints = useEndpoints({ kind: 'all' }, { poll: false });
  const environmentIds = useMemo(() => new Set(environments.map((item) => item.id)), [environments]);
  const rows = useEndpointRows(endpoints.data, environmentIds);
  // Issue 41: why an endpoint's last operation failed, from one list for the organization.
  const failureDetail = useFailureDetail(organization?.id ?? null, 'vhost');
  return (
    <>
      <PageHeader
        title="Endpoints"
        description={
          organization
            ? `Endpoints of ${organization.name}. New endpoints are created from an app's Endpoints tab.`
            : undefined
        }
      />
      {!organization ? <Banner variant="warning">Choose or create an organization first.</Banner> : null}
      <EndpointsTable
        rows={rows}
        isLoading={endpoints.isPending}
        error={endpoints.error}
        failureDetail={failureDetail}
      />
    </>
  );
}

export { EndpointsRoute as Component };
