import { type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn, matchesSearchText } from '../../../components/ui/data-table.tsx';
import {
  acmeStatusLabel,
  type Endpoint,
  endpointHostname,
  endpointUrl,
  isEndpointPending,
  needsDnsSetup,
  placementLabel,
  platformLabel,
  sharedKeyword,
  sharedLabel,
} from '../../../resources/endpoints/endpoint.hal.ts';
import { EndpointStatusPill } from './endpoint-status-pill.tsx';

/**
 * An endpoint with what the list shows beside it, joined by the page (the resource and its service),
 * and the console paths the page builds for it (lib/paths.ts).
 */
export interface EndpointRow {
  endpoint: Endpoint;
  /** The endpoint's page. */
  href: string;
  /** Its DNS Configuration tab (the Setup button while ACME waits on DNS records). */
  setupHref: string;
  resourceHandle: string;
  /** The console page of the app or database, when known. */
  resourceHref: string | null;
  serviceLabel: string;
  serviceHref: string | null;
}

/** spec 2 §2: the URL, or Pending while the endpoint is being provisioned. */
export function EndpointUrl({ endpoint }: { endpoint: Endpoint }) {
  if (isEndpointPending(endpoint)) return <>Pending</>;
  return <>{endpointUrl(endpoint) || '-'}</>;
}

// Issue 41: an endpoint whose last operation failed says why under its status.
const columns = (failureDetail?: (endpointId: string) => ReactNode): DataTableColumn<EndpointRow>[] => [
  {
    id: 'url',
    header: 'URL',
    cell: ({ endpoint, href }) => (
      <Link className="cell-strong" to={href}>
        <EndpointUrl endpoint={endpoint} />
      </Link>
    ),
    sortValue: ({ endpoint }) => (isEndpointPending(endpoint) ? '' : endpointUrl(endpoint)),
  },
  {
    id: 'hostname',
    header: 'Hostname',
    cell: ({ endpoint }) => endpointHostname(endpoint) || '-',
    sortValue: ({ endpoint }) => endpointHostname(endpoint),
  },
  {
    id: 'resource',
    header: 'Resource',
    cell: (row) =>
      row.resourceHref ? <Link to={row.resourceHref}>{row.resourceHandle}</Link> : row.resourceHandle,
    sortValue: (row) => row.resourceHandle,
  },
  {
    id: 'service',
    header: 'Service',
    cell: (row) =>
      row.serviceHref ? <Link to={row.serviceHref}>{row.serviceLabel}</Link> : row.serviceLabel,
    sortValue: (row) => row.serviceLabel,
  },
  {
    id: 'status',
    header: 'Status',
    cell: ({ endpoint }) => {
      const pill = <EndpointStatusPill status={endpoint.status} endpoint={endpoint} />;
      const detail = failureDetail?.(endpoint.id);
      return detail ? (
        <div className="endpoint-status-failed">
          {pill}
          {detail}
        </div>
      ) : (
        pill
      );
    },
    sortValue: ({ endpoint }) => endpoint.status,
  },
  {
    id: 'placement',
    header: 'Placement',
    cell: ({ endpoint }) => placementLabel(endpoint),
    sortValue: ({ endpoint }) => placementLabel(endpoint),
  },
  {
    id: 'platform',
    header: 'Platform',
    cell: ({ endpoint }) => platformLabel(endpoint),
    sortValue: ({ endpoint }) => platformLabel(endpoint),
  },
  {
    id: 'shared',
    header: 'Shared',
    cell: ({ endpoint }) => sharedLabel(endpoint),
    sortValue: ({ endpoint }) => sharedLabel(endpoint),
  },
  {
    id: 'acmeStatus',
    header: 'ACME Status',
    cell: ({ endpoint, setupHref }) => (
      <span className="endpoint-acme">
        {acmeStatusLabel(endpoint)}
        {/* spec 2 §2: a Setup button while the ACME certificate waits on DNS records. */}
        {needsDnsSetup(endpoint) ? (
          <ButtonLink
            size="sm"
            variant="secondary"
            to={setupHref}
            aria-label={`Setup ${endpointHostname(endpoint) || `endpoint ${endpoint.id}`}`}
          >
            Setup
          </ButtonLink>
        ) : null}
      </span>
    ),
    sortValue: ({ endpoint }) => acmeStatusLabel(endpoint),
  },
];

const SHARED_PREFIX = 'shared:';

/**
 * spec 2 §5, spec 3 §2: endpoints are searched by hostname, resource handle, placement or id; the
 * keywords shared:yes, shared:no and shared:n/a pick endpoints by whether they are shared.
 */
export function endpointSearchMatch(row: EndpointRow, needle: string): boolean {
  if (needle.startsWith(SHARED_PREFIX)) return sharedKeyword(row.endpoint).startsWith(needle);
  return matchesSearchText(endpointSearchText(row), needle);
}

export const endpointSearchText = ({ endpoint, resourceHandle }: EndpointRow) => [
  endpointHostname(endpoint),
  resourceHandle,
  placementLabel(endpoint),
  endpoint.id,
];

/** With no sort chosen, the newest endpoint comes first. */
const newestFirst = (a: EndpointRow, b: EndpointRow) =>
  (Date.parse(b.endpoint.createdAt) || 0) - (Date.parse(a.endpoint.createdAt) || 0) ||
  (Number(b.endpoint.id) || 0) - (Number(a.endpoint.id) || 0);

export function EndpointsTable({
  rows,
  isLoading,
  error,
  toolbar,
  label = 'Endpoints',
  failureDetail,
}: {
  rows: readonly EndpointRow[];
  isLoading: boolean;
  error: Error | null;
  toolbar?: ReactNode;
  label?: string;
  /** What shows under an endpoint whose last operation failed (the route hands it in). */
  failureDetail?: (endpointId: string) => ReactNode;
}) {
  const cells = useMemo(() => columns(failureDetail), [failureDetail]);
  return (
    <DataTable<EndpointRow>
      label={label}
      rows={rows}
      columns={cells}
      getRowId={(row) => row.endpoint.id}
      searchText={endpointSearchText}
      searchMatch={endpointSearchMatch}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search endpoints (hostname, resource, placement, id, shared:yes)"
      defaultSort={newestFirst}
    />
  );
}
