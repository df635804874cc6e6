import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import {
  type DrainKind,
  useDeleteDrain,
  useDrainOperation,
  useEnvironmentDrains,
} from '../../../features/drains/api/use-drains.ts';
import {
  type DrainActions,
  type DrainFailureDetail,
  LogDrainsTable,
  MetricDrainsTable,
} from '../../../features/drains/components/drains-table.tsx';
import { LastOperationFailure } from '../../../features/operations/components/last-operation-failure.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { icons } from '../../shell/icons.tsx';

/** Issue 41: a failed drain says why, from its last operation (stable: the tables' columns depend on it). */
const drainFailureDetail: DrainFailureDetail = (drain, kind) => (
  <LastOperationFailure operationsPath={`/${kind}_drains/${encodeURIComponent(drain.id)}/operations`} />
);

/** The actions on one kind of drain, with the problem the last one ran into. */
function useDrainActions(kind: DrainKind, denial: string | null) {
  const operation = useDrainOperation(kind);
  const remove = useDeleteDrain(kind);
  const [problem, setProblem] = useState<string | null>(null);
  const actions = useMemo<DrainActions>(
    () => ({
      denial,
      busy: operation.isPending || remove.isPending,
      operate: (drain, type) => {
        setProblem(null);
        operation.mutate({ drainId: drain.id, type }, { onError: (error) => setProblem(error.message) });
      },
      remove: (drain) => {
        setProblem(null);
        remove.mutate(drain.id, { onError: (error) => setProblem(error.message) });
      },
    }),
    [denial, operation, remove],
  );
  return { actions, problem };
}

/** spec 2 §2 environment Integrations: its log drains and metric drains. */
export function EnvironmentIntegrationsTab({ environmentId }: { environmentId: string }) {
  const logDrains = useEnvironmentDrains('log', environmentId);
  const metricDrains = useEnvironmentDrains('metric', environmentId);
  const logDenial = useActionDenial('log_drain.create', environmentId);
  const metricDenial = useActionDenial('metric_drain.create', environmentId);
  const logActions = useDrainActions('log', logDenial);
  const metricActions = useDrainActions('metric', metricDenial);
  const problem = logActions.problem ?? metricActions.problem;
  return (
    <>
      {problem ? <Banner variant="error">{problem}</Banner> : null}
      <LogDrainsTable
        label={`Log drains of environment ${environmentId}`}
        drains={logDrains.data ?? []}
        actions={logActions.actions}
        failureDetail={drainFailureDetail}
        isLoading={logDrains.isPending}
        error={logDrains.error}
        toolbar={
          <ScopedButtonLink
            size="sm"
            denial={logDenial}
            to={to.createLogDrain(environmentId)}
            icon={icons.plus}
          >
            New Log Drain
          </ScopedButtonLink>
        }
      />
      <MetricDrainsTable
        label={`Metric drains of environment ${environmentId}`}
        drains={metricDrains.data ?? []}
        actions={metricActions.actions}
        failureDetail={drainFailureDetail}
        isLoading={metricDrains.isPending}
        error={metricDrains.error}
        toolbar={
          <ScopedButtonLink
            size="sm"
            denial={metricDenial}
            to={to.createMetricDrain(environmentId)}
            icon={icons.plus}
          >
            New Metric Drain
          </ScopedButtonLink>
        }
      />
    </>
  );
}
