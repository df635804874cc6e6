import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { type DrainKind, useCreateDrain } from '../../../features/drains/api/use-drains.ts';
import { CreateLogDrainForm } from '../../../features/drains/components/create-log-drain-form.tsx';
import { CreateMetricDrainForm } from '../../../features/drains/components/create-metric-drain-form.tsx';
import { useEnvironment } from '../../../features/environments/api/use-environment.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';

/**
 * spec 2 §2 /log-drains/create and /metric-drains/create (?environment_id): create a drain and
 * provision it, then back to the environment's Integrations, where it is listed.
 */
export function CreateDrainPage({ kind }: { kind: DrainKind }) {
  const [search] = useSearchParams();
  const id = search.get('environment_id') ?? '';
  const navigate = useNavigate();
  const denial = useActionDenial(kind === 'log' ? 'log_drain.create' : 'metric_drain.create', id);
  const environment = useEnvironment(id);
  const databases = useEnvironmentDatabases(id);
  const create = useCreateDrain(kind, id);
  const submit = async (body: object) => {
    await create.mutateAsync(body);
    navigate(to.environment(id, 'integrations'));
  };
  const ofType = (type: string) => (databases.data ?? []).filter((database) => database.type === type);

  if (!/^\d{1,12}$/.test(id)) return <PageNotFound />;
  if (environment.isError) return <Banner variant="error">Error: {environment.error.message}</Banner>;
  if (!environment.data) return <Spinner label="Loading environment" />;
  return (
    <>
      <PageHeader
        title={kind === 'log' ? 'New Log Drain' : 'New Metric Drain'}
        description={
          <>
            Send the {kind === 'log' ? 'logs' : 'container metrics'} of{' '}
            <Link to={to.environment(id, 'integrations')}>{environment.data.handle}</Link> to a service of
            yours
          </>
        }
      />
      {kind === 'log' ? (
        <CreateLogDrainForm
          denial={denial}
          elasticsearchDatabases={ofType('elasticsearch')}
          onSubmit={submit}
        />
      ) : (
        <CreateMetricDrainForm denial={denial} influxDatabases={ofType('influxdb')} onSubmit={submit} />
      )}
    </>
  );
}
