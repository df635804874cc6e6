import { useId, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useApps } from '../../../features/apps/api/use-apps.ts';
import { useDeployments } from '../../../features/deployments/api/use-deployments.ts';
import {
  type DeploymentRow,
  DeploymentsTable,
} from '../../../features/deployments/components/deployments-table.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 2 §2 /deployments: every deployment of the selected organization (deployment → app →
 * environment), optionally narrowed by `accounts` (a comma list of environment ids) with Show All.
 */
function DeploymentsRoute() {
  const { environments, organization } = useConsoleContext();
  const [params, setParams] = useSearchParams();
  const filterId = useId();
  const deployments = useDeployments();
  const apps = useApps();
  const accountsParam = params.get('accounts') ?? '';
  const accounts = accountsParam
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

  const rows = useMemo<DeploymentRow[]>(() => {
    const environmentById = new Map(environments.map((environment) => [environment.id, environment]));
    const appById = new Map((apps.data ?? []).map((app) => [app.id, app]));
    const wanted = new Set(
      accountsParam
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    );
    return (deployments.data ?? []).flatMap((deployment) => {
      const app = deployment.appId ? appById.get(deployment.appId) : undefined;
      const environment = app ? environmentById.get(app.environmentId) : undefined;
      if (!app || !environment) return [];
      if (wanted.size > 0 && !wanted.has(environment.id)) return [];
      return [{ deployment, appHandle: app.handle, environmentHandle: environment.handle }];
    });
  }, [deployments.data, apps.data, environments, accountsParam]);

  const setAccounts = (value: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set('accounts', value);
      else next.delete('accounts');
      next.delete('page');
      return next;
    });

  const selected = accounts.length === 1 ? (accounts[0] ?? '') : accounts.length > 1 ? 'several' : '';
  const toolbar = (
    <>
      <label className="visually-hidden" htmlFor={filterId}>
        Environment
      </label>
      <select
        id={filterId}
        className="select table-rows"
        value={selected}
        onChange={(event) => setAccounts(event.target.value || null)}
      >
        <option value="">All environments</option>
        {accounts.length > 1 ? (
          <option value="several" disabled>
            {accounts.length} environments
          </option>
        ) : null}
        {environments.map((environment) => (
          <option key={environment.id} value={environment.id}>
            {environment.handle}
          </option>
        ))}
      </select>
      {accounts.length > 0 ? (
        <Button variant="secondary" size="sm" onClick={() => setAccounts(null)}>
          Show All
        </Button>
      ) : null}
    </>
  );

  return (
    <>
      <PageHeader
        title="Deployments"
        description={organization ? `Deployments of ${organization.name}'s apps` : undefined}
      />
      <DeploymentsTable
        rows={rows}
        isLoading={deployments.isPending || apps.isPending}
        error={deployments.error ?? apps.error}
        toolbar={toolbar}
      />
    </>
  );
}

export { DeploymentsRoute as Component };
