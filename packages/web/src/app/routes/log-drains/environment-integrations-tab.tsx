import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { useEnvironmentLogDrains } from '../../../features/log-drains/api/use-environment-log-drains.ts';
import {
  useDeleteLogDrain,
  useLogDrainOperation,
} from '../../../features/log-drains/api/use-log-drain-actions.ts';
import {
  type LogDrainActions,
  LogDrainsTable,
} from '../../../features/log-drains/components/log-drains-table.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { icons } from '../../shell/icons.tsx';

/** spec 2 §2 environment Integrations: its log drains (metric drains are not offered yet). */
export function EnvironmentIntegrationsTab({ environmentId }: { environmentId: string }) {
  const drains = useEnvironmentLogDrains(environmentId);
  const denial = useActionDenial('log_drain.create', environmentId);
  const operation = useLogDrainOperation();
  const remove = useDeleteLogDrain();
  const [problem, setProblem] = useState<string | null>(null);
  const actions = useMemo<LogDrainActions>(
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
  return (
    <>
      {problem ? <Banner variant="error">{problem}</Banner> : null}
      <LogDrainsTable
        label={`Log drains of environment ${environmentId}`}
        drains={drains.data ?? []}
        actions={actions}
        isLoading={drains.isPending}
        error={drains.error}
        toolbar={
          <ScopedButtonLink size="sm" denial={denial} to={to.createLogDrain(environmentId)} icon={icons.plus}>
            New Log Drain
          </ScopedButtonLink>
        }
      />
      <p className="muted">Metric drains are not offered here yet.</p>
    </>
  );
}
