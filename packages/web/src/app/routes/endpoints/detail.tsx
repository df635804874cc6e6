import type { ActionName } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState, Skeleton } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { endpointKeys } from '../../../features/endpoints/api/endpoint-keys.ts';
import { useEndpoint } from '../../../features/endpoints/api/use-endpoint.ts';
import { useEndpointOperation } from '../../../features/endpoints/api/use-endpoint-operation.ts';
import { useUpdateEndpoint } from '../../../features/endpoints/api/use-update-endpoint.ts';
import { DeprovisionEndpoint } from '../../../features/endpoints/components/deprovision-endpoint.tsx';
import { EndpointConnectionUrl } from '../../../features/endpoints/components/endpoint-connection-url.tsx';
import { EndpointDnsSetup } from '../../../features/endpoints/components/endpoint-dns-setup.tsx';
import { EndpointNotProvisioned } from '../../../features/endpoints/components/endpoint-not-provisioned.tsx';
import { EndpointSettingsForm } from '../../../features/endpoints/components/endpoint-settings-form.tsx';
import { EndpointStatusPill } from '../../../features/endpoints/components/endpoint-status-pill.tsx';
import { type EndpointRow, EndpointUrl } from '../../../features/endpoints/components/endpoints-table.tsx';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { ResourceOperationBanner } from '../../../features/operations/components/resource-operation-banner.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import {
  customCertificateDomain,
  type Endpoint,
  endpointHostname,
  endpointPorts,
  endpointTypeLabel,
  needsDnsSetup,
  placementLabel,
  sharedLabel,
} from '../../../resources/endpoints/endpoint.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import type { EndpointCreatedState } from './create.tsx';
import { useEndpointRows } from './endpoint-rows.ts';

type EndpointTab = 'activity' | 'settings' | 'setup' | 'credentials';

/**
 * spec 2 §2 /endpoints/{id} with /activity (the default), /settings and /setup (DNS Configuration,
 * managed HTTPS endpoints in status provisioned only) and /credentials (Connection URL, database endpoints,
 * for callers with the sensitive scope). The endpoint polls every 5 s (spec 2 §7).
 */
function EndpointDetailRoute() {
  const { id = '', tab = 'activity' } = useParams();
  const endpoint = useEndpoint(id);
  const denialOf = useActionDenials();
  const rows = useEndpointRows(endpoint.data ? [endpoint.data] : undefined);
  // spec 2 §4 resource banner: the latest operation on the endpoint.
  const latest = useOperations(`/vhosts/${id}/operations`, 1, NO_OPERATION_FILTERS);
  // The endpoint polls every 5 s, its operations every 10 s: a new status refreshes the operations
  // at once, so the banner and the Activity tab do not lag behind the details. The endpoint lists
  // are only marked stale: the global one is not polled (contract §1.13), so the next visit reads it
  // again instead of showing the old status for up to 60 s.
  const status = endpoint.data?.status;
  const queryClient = useQueryClient();
  const seenStatus = useRef(status);
  useEffect(() => {
    if (seenStatus.current !== undefined && status !== seenStatus.current) {
      void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: endpointKeys.lists(), refetchType: 'none' });
    }
    seenStatus.current = status;
  }, [status, queryClient]);

  const [row] = rows;
  return (
    <QueryState
      query={endpoint}
      loadingLabel="Loading endpoint"
      errorHeader={<PageHeader title={`Endpoint ${id}`} />}
      notFoundBack={{ label: 'Endpoints', to: paths.endpoints }}
    >
      {(current) => {
        // The row joins the endpoint with the start-up lists; it is there whenever the endpoint is.
        if (!row) return <Skeleton label="Loading endpoint" />;
        // Issue 41: an endpoint with a custom certificate on its own domain needs the same traffic record.
        const dnsTab =
          (current.acme || customCertificateDomain(current) !== '') && current.status === 'provisioned';
        const databaseId = databaseIdOf(current);
        // spec 2 §2 Connection URL: database endpoints only, for callers who may read its credentials.
        const credentialsDenial =
          databaseId && current.environmentId
            ? denialOf('database.credentials.read', current.environmentId)
            : null;
        const credentialsTab = databaseId !== null && credentialsDenial === null;
        const tabs: { key: EndpointTab; label: string }[] = [
          { key: 'activity', label: 'Activity' },
          { key: 'settings', label: 'Settings' },
          ...(dnsTab ? [{ key: 'setup' as const, label: 'DNS Configuration' }] : []),
          ...(credentialsTab ? [{ key: 'credentials' as const, label: 'Connection URL' }] : []),
        ];
        const active = tabs.find((item) => item.key === tab)?.key ?? null;
        // spec 2 §4: DNS Configuration is a known tab that waits for provisioning, Connection URL one that
        // needs the sensitive scope (a database endpoint's); anything else is unknown.
        const waiting = tab === 'setup' || (tab === 'credentials' && databaseId !== null);
        if (active === null && !waiting) return <PageNotFound />;
        const hostname = endpointHostname(current);

        return (
          <>
            <PageHeader
              title={current.userDomain || current.virtualDomain || hostname || `Endpoint ${current.id}`}
              description={
                row.resourceHref ? (
                  <>
                    Endpoint of <Link to={row.resourceHref}>{row.resourceHandle}</Link>
                  </>
                ) : (
                  `Endpoint of ${row.resourceHandle}`
                )
              }
            />
            <ResourceOperationBanner operations={latest.data?.operations ?? []} />
            <ProvisionPrompt endpoint={current} />
            {/* spec 2 §2: custom-domain endpoints waiting on DNS records get a Finish setup banner. */}
            {needsDnsSetup(current) ? (
              <Banner
                variant="warning"
                title="Finish setup"
                actions={
                  <ButtonLink size="sm" variant="secondary" to={to.endpoint(current.id, 'setup')}>
                    Finish setup
                  </ButtonLink>
                }
              >
                Create the DNS records for {current.userDomain || 'your domain'} so its certificate can be
                issued.
              </Banner>
            ) : null}
            <EndpointDetails row={row} />
            <TabNav
              label="Endpoint tabs"
              tabs={tabs.map((item) => ({
                label: item.label,
                to: item.key === 'activity' ? to.endpoint(current.id) : to.endpoint(current.id, item.key),
              }))}
            />
            {active === null && tab === 'setup' ? (
              <Banner variant="warning">
                DNS Configuration is available for endpoints on your own domain once they are provisioned.
              </Banner>
            ) : active === null && tab === 'credentials' ? (
              <DenialBanner denial={credentialsDenial ?? ''} />
            ) : active === null ? null : (
              <EndpointTabBody tab={active} endpoint={current} />
            )}
          </>
        );
      }}
    </QueryState>
  );
}

/** The database behind a database endpoint (its HAL names the resource), or null. */
function databaseIdOf(endpoint: Endpoint): string | null {
  return endpoint.resourceType === 'database' && endpoint.resourceId ? endpoint.resourceId : null;
}

/**
 * The caller's denials for actions on an endpoint. One that names no environment is left to the server:
 * its HAL always carries one, so the console does not second-guess a malformed row.
 */
function useEndpointDenials(endpoint: Endpoint) {
  const denialOf = useActionDenials();
  const { environmentId } = endpoint;
  return (action: ActionName) => (environmentId ? denialOf(action, environmentId) : null);
}

/**
 * spec 2 §4 endpoint provisioning, second step: an endpoint still pending was never provisioned (the
 * create flow lands here when its provision call failed, with the server's message).
 */
function ProvisionPrompt({ endpoint }: { endpoint: Endpoint }) {
  const denialOf = useEndpointDenials(endpoint);
  const location = useLocation();
  const queryClient = useQueryClient();
  const provision = useEndpointOperation(endpoint.id);
  const [operationId, setOperationId] = useState<string | null>(null);
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
    [queryClient],
  );
  if (operationId)
    return <OperationProgress operationId={operationId} type="provision" onFinished={refresh} />;
  if (endpoint.status !== 'pending') return null;
  const created = location.state as Partial<EndpointCreatedState> | null;
  const error = provision.error?.message ?? created?.provisionError ?? null;
  return (
    <EndpointNotProvisioned
      error={error}
      denial={denialOf('vhost.provision')}
      isPending={provision.isPending}
      onProvision={() =>
        provision.mutate('provision', { onSuccess: (started) => setOperationId(started.id) })
      }
    />
  );
}

function EndpointDetails({ row }: { row: EndpointRow }) {
  const { endpoint } = row;
  return (
    <DetailList
      label="Endpoint details"
      items={[
        { label: 'URL', value: <EndpointUrl endpoint={endpoint} /> },
        { label: 'Hostname', value: endpointHostname(endpoint) || '-' },
        { label: 'Type', value: endpointTypeLabel(endpoint) },
        {
          label: 'Resource',
          value: row.resourceHref ? (
            <Link to={row.resourceHref}>{row.resourceHandle}</Link>
          ) : (
            row.resourceHandle
          ),
        },
        {
          label: 'Service Process',
          value: row.serviceHref ? <Link to={row.serviceHref}>{row.serviceLabel}</Link> : row.serviceLabel,
        },
        { label: 'Service ID', value: endpoint.serviceId ? <code>{endpoint.serviceId}</code> : '-' },
        {
          label: 'IP Allowlist',
          value: endpoint.ipWhitelist.length
            ? endpoint.ipWhitelist.join(', ')
            : 'Disabled (all traffic allowed)',
        },
        { label: 'Placement', value: placementLabel(endpoint) },
        { label: 'Port(s)', value: endpointPorts(endpoint) },
        { label: 'Status', value: <EndpointStatusPill status={endpoint.status} endpoint={endpoint} /> },
        { label: 'Shared', value: sharedLabel(endpoint) },
        { label: 'Using Header Auth', value: endpoint.hasTokenHeader ? 'Yes' : 'No' },
      ]}
    />
  );
}

function EndpointTabBody({ tab, endpoint }: { tab: EndpointTab; endpoint: Endpoint }): ReactNode {
  switch (tab) {
    case 'activity':
      return <ActivityTab endpointId={endpoint.id} />;
    case 'settings':
      return <SettingsTab endpoint={endpoint} />;
    case 'setup':
      return <SetupTab endpoint={endpoint} />;
    case 'credentials':
      return (
        <EndpointConnectionUrl endpoint={endpoint} databaseId={databaseIdOf(endpoint) ?? ''} denial={null} />
      );
  }
}

function ActivityTab({ endpointId }: { endpointId: string }) {
  return (
    <ActivityTable
      listPath={`/vhosts/${endpointId}/operations`}
      resourceLink={(operation) => <OperationResourceLink operation={operation} />}
      resourceTypes={['vhost']}
      label={`Activity of endpoint ${endpointId}`}
    />
  );
}

function SettingsTab({ endpoint }: { endpoint: Endpoint }) {
  const denialOf = useEndpointDenials(endpoint);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const update = useUpdateEndpoint(endpoint.id);
  const operation = useEndpointOperation(endpoint.id);
  const [provisionId, setProvisionId] = useState<string | null>(null);
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
    [queryClient],
  );
  return (
    <div className="section-stack">
      {provisionId ? (
        <OperationProgress operationId={provisionId} type="provision" onFinished={refresh} />
      ) : null}
      <EndpointSettingsForm
        // A new form once the saved values come back, so it starts from them.
        key={`${endpoint.ipWhitelist.join(',')}|${endpoint.containerPort}|${endpoint.lbAlgorithm}|${endpoint.shared}|${endpoint.hasTokenHeader}`}
        endpoint={endpoint}
        denial={denialOf('vhost.update')}
        onSave={async (body) => {
          const saved = await update.mutateAsync(body);
          setProvisionId(saved.operation.id);
        }}
      />
      <DeprovisionEndpoint
        hostname={endpointHostname(endpoint)}
        denial={denialOf('vhost.deprovision')}
        onDeprovision={async () => {
          const started = await operation.mutateAsync('deprovision');
          // spec 2 §4: operation flows end on the operation's page (a 404 there counts as done).
          navigate(to.operation(started.id));
        }}
      />
    </div>
  );
}

/** spec 2 §2 DNS Configuration: the records to create, then `renew` issues the managed certificate. */
function SetupTab({ endpoint }: { endpoint: Endpoint }) {
  const denialOf = useEndpointDenials(endpoint);
  const queryClient = useQueryClient();
  const operation = useEndpointOperation(endpoint.id);
  const [renewId, setRenewId] = useState<string | null>(null);
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: endpointKeys.all }),
    [queryClient],
  );
  return (
    <div className="section-stack">
      {renewId ? <OperationProgress operationId={renewId} type="renew" onFinished={refresh} /> : null}
      <EndpointDnsSetup
        endpoint={endpoint}
        denial={denialOf('vhost.renew')}
        onRenew={async () => {
          const started = await operation.mutateAsync('renew');
          setRenewId(started.id);
        }}
      />
    </div>
  );
}

export { EndpointDetailRoute as Component };
