import { operationRequest, scaleBanner } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { DatabaseBackups } from '../../../features/backups/components/database-backups.tsx';
import { runPitrRestore } from '../../../features/database-detail/api/pitr-restore.ts';
import { useDatabaseEndpoints } from '../../../features/database-detail/api/use-database-endpoints.ts';
import { useStartDatabaseOperation } from '../../../features/database-detail/api/use-database-operation.ts';
import { useDatabaseService } from '../../../features/database-detail/api/use-database-service.ts';
import {
  useUnlinkDatabase,
  useUpdateDatabase,
} from '../../../features/database-detail/api/use-update-database.ts';
import { DatabaseCluster } from '../../../features/database-detail/components/database-cluster.tsx';
import { DatabaseConnectionUrls } from '../../../features/database-detail/components/database-connection-urls.tsx';
import {
  DatabaseDetails,
  DatabaseVersionNotice,
} from '../../../features/database-detail/components/database-details.tsx';
import { DatabaseRecoveryForm } from '../../../features/database-detail/components/database-recovery-form.tsx';
import { DatabaseScaleForm } from '../../../features/database-detail/components/database-scale-form.tsx';
import { DatabaseSettings } from '../../../features/database-detail/components/database-settings.tsx';
import {
  DatabaseUnavailableBadge,
  DatabaseUnavailableBanner,
} from '../../../features/database-detail/components/database-unavailable.tsx';
import { EndpointsTable } from '../../../features/endpoints/components/endpoints-table.tsx';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { ActivityTable } from '../../../features/operations/components/activity-table.tsx';
import { ResourceOperationBanner } from '../../../features/operations/components/resource-operation-banner.tsx';
import { useStackProfiles } from '../../../features/services/api/use-stack-profiles.ts';
import { useScalingLabels } from '../../../features/sizing/api/use-sizing.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useActionDenial, useActionDenials } from '../../../lib/use-action-denial.ts';
import type { Database, DatabaseImage } from '../../../resources/databases/database.hal.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import {
  useDatabase,
  useDatabaseDependents,
  useDatabaseImages,
} from '../../../resources/databases/use-databases.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import type { Service } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';
import { isDatabaseRecoveryEnabled } from '../../feature-flags.ts';
import { icons } from '../../shell/icons.tsx';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { useEndpointRows } from '../endpoints/endpoint-rows.ts';
import { OperationResourceLink } from '../operations/operation-resource-link.tsx';
import { ServiceMetricsTab } from '../services/metrics-tab.tsx';

const TABS = [
  'metrics',
  'scale',
  'endpoints',
  'activity',
  'backups',
  'cluster',
  'credentials',
  'recovery',
  'settings',
] as const;
type Tab = (typeof TABS)[number];

const TAB_LABELS: Record<Tab, string> = {
  metrics: 'Metrics',
  scale: 'Scale',
  endpoints: 'Endpoints',
  activity: 'Activity',
  backups: 'Backups',
  cluster: 'Cluster',
  credentials: 'Connection URLs',
  recovery: 'Recovery',
  settings: 'Settings',
};

/** spec 2 §2 /databases/{id} with its tabs; the tab is the last path segment (Metrics by default). */
function DatabaseDetailRoute() {
  const { id = '', tab } = useParams();
  const { environments } = useConsoleContext();
  const database = useDatabase(id, { poll: true });
  const images = useDatabaseImages();
  const service = useDatabaseService(database.data?.serviceId ?? null);
  const scalingLabel = useScalingLabels();
  const primary = useDatabase(database.data?.initializeFromId ?? '');
  // spec 2 §4: the latest operation on the database or its service (banner and Last Scale).
  const latest = useOperations(`/databases/${id}/operations?with_services=true`, 1, NO_OPERATION_FILTERS);
  const navigate = useNavigate();
  const refresh = useRefreshAfterOperation();
  // spec 2 §4: deprovisioning waits for the operation, then leaves for the environment. It is followed
  // here, above the page, because the database itself starts answering 404 while it goes away.
  const [deprovision, setDeprovision] = useState<{ operationId: string; environmentId: string } | null>(null);
  const progress = deprovision ? (
    <OperationProgress
      operationId={deprovision.operationId}
      type="deprovision"
      onFinished={(status) => {
        refresh();
        if (status === 'succeeded') navigate(to.environment(deprovision.environmentId));
      }}
    />
  ) : null;
  if (deprovision && database.isError) return progress;

  return (
    <QueryState
      query={database}
      loadingLabel="Loading database"
      notFoundBack={{ label: 'Databases', to: paths.databases }}
    >
      {(current) => {
        const environment = environments.find((item) => item.id === current.environmentId);
        const image = images.data?.find((item) => item.id === current.databaseImageId) ?? null;
        // spec 2 §2: Recovery only with the feature flag on, and only for images with PITR support.
        const visibleTabs = TABS.filter(
          (item) => item !== 'recovery' || (isDatabaseRecoveryEnabled() && image?.pitrSupported === true),
        );
        const active: Tab | null =
          tab === undefined ? 'metrics' : (visibleTabs.find((item) => item === tab) ?? null);
        if (active === null) return <PageNotFound />;
        const operations = latest.data?.operations ?? [];
        const scale = scaleBanner(
          operations,
          service.data
            ? {
                containerCount: service.data.containerCount,
                containerSize: service.data.containerMemoryMb,
                instanceProfile: service.data.instanceClass,
              }
            : null,
        );

        return (
          <>
            <PageHeader
              title={current.handle}
              actions={<DatabaseUnavailableBadge database={current} />}
              description={
                environment ? (
                  <>
                    Database in <Link to={to.environment(environment.id)}>{environment.handle}</Link>
                  </>
                ) : undefined
              }
            />
            {/* Scales have their own banner below; the generic one covers restarts and the rest. */}
            <ResourceOperationBanner
              operations={operations.filter((operation) => operation.type !== 'scale')}
            />
            {scale ? (
              <Banner
                variant="info"
                title={scale.title}
                actions={<Link to={to.operation(scale.operationId)}>View operation</Link>}
              >
                {scale.summary}
              </Banner>
            ) : null}
            <DatabaseUnavailableBanner database={current} />
            <DatabaseVersionNotice image={image} />
            <DatabaseDetails
              database={current}
              service={service.data ?? null}
              scalingLabel={scalingLabel}
              image={image}
              replicates={
                current.initializeFromId ? (
                  <Link to={to.database(current.initializeFromId)}>
                    {primary.data?.handle ?? current.initializeFromId}
                  </Link>
                ) : null
              }
            />
            <TabNav
              label="Database tabs"
              tabs={visibleTabs.map((item) => ({
                label: TAB_LABELS[item],
                to: item === 'metrics' ? to.database(id) : to.database(id, item),
              }))}
            />
            {progress}
            <DatabaseTab
              tab={active}
              onDeprovisionStarted={(operationId) =>
                setDeprovision({ operationId, environmentId: current.environmentId })
              }
              database={current}
              service={service.data ?? null}
              image={image}
              stackId={environment?.stackId ?? null}
            />
          </>
        );
      }}
    </QueryState>
  );
}

function DatabaseTab({
  tab,
  onDeprovisionStarted,
  database,
  service,
  image,
  stackId,
}: {
  tab: Tab;
  onDeprovisionStarted: (operationId: string) => void;
  database: Database;
  service: Service | null;
  image: DatabaseImage | null;
  stackId: string | null;
}): ReactNode {
  switch (tab) {
    case 'metrics':
      return service ? (
        <ServiceMetricsTab service={service} />
      ) : (
        <EmptyState title="No data found" description="This database has no service to chart yet." />
      );
    case 'scale':
      return <ScaleTab database={database} service={service} stackId={stackId} />;
    case 'endpoints':
      return <EndpointsTab database={database} />;
    case 'activity':
      return (
        <ActivityTable
          listPath={`/databases/${database.id}/operations?with_services=true`}
          resourceLink={(operation) => <OperationResourceLink operation={operation} />}
          // contract §5.11 with_services: the database's, its service's and its endpoints' operations.
          resourceTypes={['database', 'service', 'vhost']}
          label={`Activity of database ${database.id}`}
        />
      );
    case 'backups':
      return <DatabaseBackups database={database} />;
    case 'cluster':
      return <DatabaseCluster databaseId={database.id} />;
    case 'credentials':
      return <CredentialsTab database={database} />;
    case 'recovery':
      return <RecoveryTab database={database} />;
    case 'settings':
      return (
        <SettingsTab
          database={database}
          pitrSupported={image?.pitrSupported === true}
          onDeprovisionStarted={onDeprovisionStarted}
        />
      );
  }
}

/** Refreshes what an ended operation changed: the database, its service, the operation lists. */
function useRefreshAfterOperation() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: databaseKeys.all });
    void queryClient.invalidateQueries({ queryKey: serviceKeys.all });
    void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
  }, [queryClient]);
}

function ScaleTab({
  database,
  service,
  stackId,
}: {
  database: Database;
  service: Service | null;
  stackId: string | null;
}) {
  const denial = useActionDenial('database.scale', database.environmentId);
  const profiles = useStackProfiles(stackId);
  const start = useStartDatabaseOperation(database.id);
  const refresh = useRefreshAfterOperation();
  const [operationId, setOperationId] = useState<string | null>(null);
  if (!service || !database.disk) {
    return <EmptyState title="No resources found" description="This database is not provisioned yet." />;
  }
  const current = {
    containerSizeMb: service.containerMemoryMb,
    instanceProfile: service.instanceClass,
    diskSizeGb: database.disk.sizeGb,
    provisionedIops: database.disk.provisionedIops,
  };
  return (
    <div className="section-stack">
      {operationId ? <OperationProgress operationId={operationId} type="scale" onFinished={refresh} /> : null}
      <DatabaseScaleForm
        key={`${current.containerSizeMb}-${current.instanceProfile}-${current.diskSizeGb}-${current.provisionedIops}`}
        type={database.type}
        current={current}
        allowed={profiles.data ?? { m: true, r: false, c: false }}
        denial={denial}
        onScale={async (size) => {
          const operation = await start.mutateAsync(
            operationRequest('database', 'scale', {
              id: database.id,
              container_size: size.containerSizeMb,
              instance_profile: size.instanceProfile,
              // contract §6: 0 leaves the disk as it is.
              disk_size: size.diskSizeGb === current.diskSizeGb ? 0 : size.diskSizeGb,
              provisioned_iops: size.provisionedIops,
            }),
          );
          setOperationId(operation.id);
        }}
      />
    </div>
  );
}

/** spec 2 §2 database Endpoints tab: its endpoints and New Endpoint (spec 2 §2 "offered on app and database pages"). */
function EndpointsTab({ database }: { database: Database }) {
  const endpoints = useDatabaseEndpoints(database.id, database.serviceId);
  const rows = useEndpointRows(endpoints.data);
  const denial = useActionDenial('vhost.create', database.environmentId);
  return (
    <EndpointsTable
      label={`Endpoints of database ${database.id}`}
      rows={rows}
      isLoading={endpoints.isPending}
      error={endpoints.error}
      toolbar={
        <ScopedButtonLink
          size="sm"
          denial={denial}
          to={to.createDatabaseEndpoint(database.id)}
          icon={icons.plus}
        >
          New Endpoint
        </ScopedButtonLink>
      }
    />
  );
}

function CredentialsTab({ database }: { database: Database }) {
  const denial = useActionDenial('database.credentials.read', database.environmentId);
  return <DatabaseConnectionUrls databaseId={database.id} denial={denial} />;
}

function RecoveryTab({ database }: { database: Database }) {
  const denial = useActionDenial('database.pitr_restore', database.environmentId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <DatabaseRecoveryForm
      handle={database.handle}
      pitrEnabled={database.enablePitr}
      denial={denial}
      onRestore={async (request, onStep) => {
        const newId = await runPitrRestore(database, request, { onStep });
        void queryClient.invalidateQueries({ queryKey: databaseKeys.all });
        navigate(to.database(newId));
      }}
    />
  );
}

function SettingsTab({
  database,
  pitrSupported,
  onDeprovisionStarted,
}: {
  database: Database;
  pitrSupported: boolean;
  onDeprovisionStarted: (operationId: string) => void;
}) {
  const denialOf = useActionDenials();
  const update = useUpdateDatabase(database.id);
  const unlink = useUnlinkDatabase(database.id);
  const start = useStartDatabaseOperation(database.id);
  const dependents = useDatabaseDependents(database.id);
  const refresh = useRefreshAfterOperation();
  const [operation, setOperation] = useState<{ id: string; type: string } | null>(null);
  const envId = database.environmentId;

  return (
    <div className="section-stack">
      {operation ? (
        <OperationProgress operationId={operation.id} type={operation.type} onFinished={refresh} />
      ) : null}
      <DatabaseSettings
        database={database}
        pitrSupported={pitrSupported}
        dependentHandles={(dependents.data ?? []).map((dependent) => dependent.handle)}
        denials={{
          rename: denialOf('database.rename', envId),
          backups: denialOf('database.backups.update', envId),
          unlink: denialOf('database.unlink', envId),
          restart: denialOf('database.restart', envId),
          restartRecreate: denialOf('database.restart_recreate', envId),
          deprovision: denialOf('database.deprovision', envId),
        }}
        onRename={(handle) => update.mutateAsync({ handle })}
        onUpdateBackups={(changes) => update.mutateAsync(changes)}
        onUnlink={() => unlink.mutateAsync()}
        onRestart={async () => {
          const started = await start.mutateAsync(
            operationRequest('database', 'restart', { id: database.id }),
          );
          setOperation({ id: started.id, type: 'restart' });
        }}
        onRestartRecreate={async () => {
          const started = await start.mutateAsync(
            operationRequest('database', 'restart_recreate', { id: database.id }),
          );
          setOperation({ id: started.id, type: 'restart_recreate' });
        }}
        onDeprovision={async () => {
          const started = await start.mutateAsync(operationRequest('database', 'deprovision'));
          onDeprovisionStarted(started.id);
        }}
      />
    </div>
  );
}

export { DatabaseDetailRoute as Component };
