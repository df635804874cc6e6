import { cpuShare, formatUsd, scaleBanner } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TabNav } from '../../../components/ui/tabs.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { useEndpoints } from '../../../features/endpoints/api/use-endpoints.ts';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { ResourceOperationBanner } from '../../../features/operations/components/resource-operation-banner.tsx';
import { useRestartService } from '../../../features/services/api/use-restart-service.ts';
import { useScaleService } from '../../../features/services/api/use-scale-service.ts';
import { useService } from '../../../features/services/api/use-service.ts';
import { useStackProfiles } from '../../../features/services/api/use-stack-profiles.ts';
import { useUpdateService } from '../../../features/services/api/use-update-service.ts';
import { ScaleForm } from '../../../features/services/components/scale-form.tsx';
import {
  useSaveServicePolicy,
  useScalingLabels,
  useServicePolicy,
} from '../../../features/sizing/api/use-sizing.ts';
import { AutoscalingForm } from '../../../features/sizing/components/autoscaling-form.tsx';
import { CurrentPolicy } from '../../../features/sizing/components/current-policy.tsx';
import { useApp } from '../../../resources/apps/use-app.ts';
import '../../../features/sizing/components/sizing.css';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { appKeys } from '../../../resources/apps/app-keys.ts';
import { costKeys } from '../../../resources/costs/cost-keys.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import { deploymentStrategy, memoryGb, type Service } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';
import { ScalingRec } from '../../../resources/sizing/scaling-rec.tsx';
import { useStack } from '../../../resources/stacks/use-stack.ts';
import '../../../features/services/components/services.css';
import { ServiceSettingsForm } from '../../../features/services/components/service-settings-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';
import { ServiceLogsTab } from './logs-tab.tsx';
import { ServiceMetricsTab } from './metrics-tab.tsx';

const TABS = [
  { tab: 'metrics', label: 'Metrics' },
  { tab: 'logs', label: 'Logs' },
  { tab: 'scale', label: 'Scale' },
  { tab: 'settings', label: 'Settings' },
] as const;

/** spec 2 §2 /apps/{id}/services/{serviceId} with Metrics, Scale and Settings, and our Logs. */
function ServiceDetailRoute() {
  const { id = '', serviceId = '', tab = 'metrics' } = useParams();
  const { organization, environments } = useConsoleContext();
  const service = useService(serviceId);
  const app = useApp(id);
  const costs = useCosts(organization?.id ?? null, 'services');
  const scalingLabel = useScalingLabels();
  // spec 2 §4: the latest scale or restart of the service, while it runs or when it failed.
  const latest = useOperations(`/services/${serviceId}/operations`, 1, NO_OPERATION_FILTERS);
  // spec 2 §4: the deployment strategy and the settings depend on the service's endpoints.
  const endpoints = useEndpoints({ kind: 'service', id: serviceId }, { poll: false });
  const endpointTypes = (endpoints.data ?? []).map((endpoint) => endpoint.type);

  return (
    <QueryState query={service} loadingLabel="Loading service">
      {(current) => {
        const environment = environments.find((item) => item.id === current.environmentId);
        const share = cpuShare(current.instanceClass, current.containerMemoryMb);
        const active = TABS.find((item) => item.tab === tab)?.tab ?? null;
        if (active === null) return <PageNotFound />;
        const scale = scaleBanner(latest.data?.operations ?? [], {
          containerCount: current.containerCount,
          containerSize: current.containerMemoryMb,
          instanceProfile: current.instanceClass,
        });

        return (
          <>
            <PageHeader
              title={current.handle}
              description={
                <>
                  Service of <Link to={to.app(id)}>{app.data?.handle ?? id}</Link>
                </>
              }
            />
            {/* Scales have their own banner below; the generic one covers restarts and the rest. */}
            <ResourceOperationBanner
              operations={(latest.data?.operations ?? []).filter((operation) => operation.type !== 'scale')}
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
            <DetailList
              label="Service details"
              items={[
                { label: 'ID', value: current.id },
                { label: 'Container Size', value: `${memoryGb(current.containerMemoryMb)} GB` },
                { label: 'Type', value: current.processType },
                { label: 'App', value: <Link to={to.app(id)}>{app.data?.handle ?? id}</Link> },
                { label: 'Container Count', value: current.containerCount },
                { label: 'CPU Share', value: share === null ? 'Unknown' : share },
                { label: 'Environment', value: environment?.handle ?? 'Unknown' },
                { label: 'Est. Monthly Cost', value: formatUsd(costs.data?.get(current.id) ?? 0) },
                { label: 'Container Profile', value: current.instanceClass },
                { label: 'Deployment Strategy', value: deploymentStrategy(current, endpointTypes) },
                { label: 'Scaling Recommendations', value: <ScalingRec label={scalingLabel(current)} /> },
                {
                  label: 'Command',
                  value: (
                    <details className="service-command">
                      <summary>Show command</summary>
                      <code>{current.command || 'Docker CMD'}</code>
                    </details>
                  ),
                },
              ]}
            />
            <TabNav
              label="Service tabs"
              tabs={TABS.map((item) => ({ label: item.label, to: to.service(id, serviceId, item.tab) }))}
            />
            {active === 'metrics' ? (
              <ServiceMetricsTab service={current} />
            ) : active === 'logs' ? (
              <ServiceLogsTab service={current} />
            ) : active === 'scale' ? (
              <ScaleTab service={current} stackId={environment?.stackId ?? null} />
            ) : (
              <SettingsTab service={current} hasEndpoints={endpointTypes.length > 0} />
            )}
          </>
        );
      }}
    </QueryState>
  );
}

function ScaleTab({ service, stackId }: { service: Service; stackId: string | null }) {
  const denial = useActionDenial('service.scale', service.environmentId);
  const queryClient = useQueryClient();
  const profiles = useStackProfiles(stackId);
  const scale = useScaleService(service.id);
  const [operationId, setOperationId] = useState<string | null>(null);
  return (
    <div className="section-stack">
      {operationId ? (
        <OperationProgress
          operationId={operationId}
          type="scale"
          onFinished={() => {
            void queryClient.invalidateQueries({ queryKey: serviceKeys.all });
            void queryClient.invalidateQueries({ queryKey: appKeys.all });
            // The new size changes the estimate, and the lists now hold the finished scale.
            void queryClient.invalidateQueries({ queryKey: costKeys.all });
            void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
          }}
        />
      ) : null}
      <ScaleForm
        key={`${service.containerCount}-${service.containerMemoryMb}-${service.instanceClass}`}
        service={service}
        allowed={profiles.data ?? { m: true, r: false, c: false }}
        denial={denial}
        onScale={async (request) => {
          const operation = await scale.mutateAsync(request);
          setOperationId(operation.id);
        }}
      />
      {service.appId ? <AutoscalingSection service={service} stackId={stackId} /> : null}
    </div>
  );
}

/** spec 2 §4: the autoscaling form beside the current policy, where the stack offers autoscaling. */
function AutoscalingSection({ service, stackId }: { service: Service; stackId: string | null }) {
  const denial = useActionDenial('service_sizing_policy.update', service.environmentId);
  const stack = useStack(stackId ?? '');
  const policy = useServicePolicy(service.id);
  const { save, remove } = useSaveServicePolicy(service.id);
  const allowed = stack.data?.autoscaling ?? { horizontal: false, vertical: false };
  // Said here, not in the form: a saved policy gives the form a new key, and it starts afresh.
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <QueryState query={policy} loadingLabel="Loading autoscaling policy">
      {(current) =>
        !allowed.horizontal && !allowed.vertical && !current ? (
          <p className="muted">Autoscaling is not offered on this stack.</p>
        ) : (
          <div className="section-stack">
            {notice ? <Banner variant="success">{notice}</Banner> : null}
            <div className="autoscaling-layout">
              <AutoscalingForm
                key={current?.updatedAt ?? 'none'}
                policy={current}
                allowed={allowed}
                denial={denial}
                onSave={async (body) => {
                  setNotice(null);
                  await save.mutateAsync({ exists: current !== null, body });
                  setNotice(
                    body.scaling_enabled
                      ? 'Autoscaling policy saved.'
                      : 'Autoscaling is off for this service.',
                  );
                }}
              />
              <div className="section-stack">
                <CurrentPolicy policy={current} />
                {current ? (
                  <ConfirmButton
                    label="Remove Policy"
                    confirmLabel="Remove"
                    warning="Autoscaling stops; the service keeps its current size."
                    denial={denial}
                    onConfirm={() => remove.mutateAsync()}
                  >
                    Remove Policy
                  </ConfirmButton>
                ) : null}
              </div>
            </div>
          </div>
        )
      }
    </QueryState>
  );
}

function SettingsTab({ service, hasEndpoints }: { service: Service; hasEndpoints: boolean }) {
  const denial = useActionDenial('service.update', service.environmentId);
  const restartDenial = useActionDenial('service.restart', service.environmentId);
  const update = useUpdateService(service.id);
  const restart = useRestartService(service.id);
  const queryClient = useQueryClient();
  const [operationId, setOperationId] = useState<string | null>(null);
  return (
    <div className="section-stack">
      <ServiceSettingsForm
        service={service}
        hasEndpoints={hasEndpoints}
        denial={denial}
        onSave={(values) => update.mutateAsync(values)}
      />
      {/* Issue 20: one service restarts on its own (the API always could), after a confirmation. */}
      <section className="card card-body form" aria-label="Restart Service">
        <h2 className="section-title">Restart Service</h2>
        <p className="field-hint">
          Restarts the containers of {service.handle} only; the app's other services keep running.
        </p>
        {operationId ? (
          <OperationProgress
            operationId={operationId}
            type="restart"
            onFinished={() => void queryClient.invalidateQueries({ queryKey: operationKeys.lists() })}
          />
        ) : null}
        {restart.isError ? <Banner variant="error">{restart.error.message}</Banner> : null}
        <div>
          <ConfirmButton
            label={`Restart Service ${service.handle}`}
            confirmLabel={`Confirm restart of ${service.handle}`}
            warning="Its containers stop and start again; requests may fail meanwhile."
            denial={restartDenial}
            size="md"
            onConfirm={async () => setOperationId((await restart.mutateAsync()).id)}
          >
            Restart Service
          </ConfirmButton>
        </div>
      </section>
    </div>
  );
}

export { ServiceDetailRoute as Component };
