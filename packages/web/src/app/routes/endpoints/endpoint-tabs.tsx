import { Link } from 'react-router';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { useEndpoints } from '../../../features/endpoints/api/use-endpoints.ts';
import { EndpointsTable } from '../../../features/endpoints/components/endpoints-table.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { endpointHostname, isEndpointPending } from '../../../resources/endpoints/endpoint.hal.ts';
import { icons } from '../../shell/icons.tsx';
import { useEndpointRows } from './endpoint-rows.ts';

/** spec 2 §2 app Endpoints tab: the app's endpoints (polled every 5 s) and New Endpoint (deploy scope). */
export function AppEndpointsTab({ appId, environmentId }: { appId: string; environmentId: string }) {
  const endpoints = useEndpoints({ kind: 'app', id: appId });
  const rows = useEndpointRows(endpoints.data);
  const denial = useActionDenial('vhost.create', environmentId);
  return (
    <EndpointsTable
      label={`Endpoints of app ${appId}`}
      rows={rows}
      isLoading={endpoints.isPending}
      error={endpoints.error}
      toolbar={
        <ScopedButtonLink size="sm" denial={denial} to={to.createAppEndpoint(appId)} icon={icons.plus}>
          New Endpoint
        </ScopedButtonLink>
      }
    />
  );
}

/** spec 2 §2 environment Endpoints tab: the endpoints of its apps and databases, polled every 5 s. */
export function EnvironmentEndpointsTab({ environmentId }: { environmentId: string }) {
  const endpoints = useEndpoints({ kind: 'environment', id: environmentId });
  const rows = useEndpointRows(endpoints.data);
  return (
    <EndpointsTable
      label={`Endpoints of environment ${environmentId}`}
      rows={rows}
      isLoading={endpoints.isPending}
      error={endpoints.error}
    />
  );
}

/** spec 2 §9: the environment detail lists its endpoints only when there are 5 or fewer. */
export const ENVIRONMENT_ENDPOINTS_LISTED_UP_TO = 5;

/**
 * spec 2 §2 environment detail "endpoint count; endpoints are listed only if there are 5 or fewer":
 * the count, then each endpoint (its hostname, or Pending) linked to its page.
 */
export function EnvironmentEndpointsSummary({
  environmentId,
  count,
}: {
  environmentId: string;
  count: number;
}) {
  const listed = count > 0 && count <= ENVIRONMENT_ENDPOINTS_LISTED_UP_TO;
  const endpoints = useEndpoints({ kind: 'environment', id: listed ? environmentId : '' }, { poll: false });
  const shown = listed ? (endpoints.data ?? []).slice(0, ENVIRONMENT_ENDPOINTS_LISTED_UP_TO) : [];
  return (
    <>
      {count}
      {shown.length > 0 ? (
        <>
          {' ('}
          {shown.map((endpoint, index) => (
            <span key={endpoint.id}>
              {index > 0 ? ', ' : null}
              <Link to={to.endpoint(endpoint.id)}>
                {isEndpointPending(endpoint)
                  ? 'Pending'
                  : endpointHostname(endpoint) || `Endpoint ${endpoint.id}`}
              </Link>
            </span>
          ))}
          {')'}
        </>
      ) : null}
    </>
  );
}
