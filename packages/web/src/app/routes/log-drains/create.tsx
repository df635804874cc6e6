import { Link, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useEnvironment } from '../../../features/environments/api/use-environment.ts';
import { useCreateLogDrain } from '../../../features/log-drains/api/use-log-drain-actions.ts';
import { CreateLogDrainForm } from '../../../features/log-drains/components/create-log-drain-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';
import { PageNotFound } from '../../shell/page-not-found.tsx';

/** spec 2 §2 /log-drains/create?environment_id: create a log drain and provision it, then list it. */
function CreateLogDrainRoute() {
  const [search] = useSearchParams();
  const id = search.get('environment_id') ?? '';
  const navigate = useNavigate();
  const denial = useActionDenial('log_drain.create', id);
  const environment = useEnvironment(id);
  const databases = useEnvironmentDatabases(id);
  const create = useCreateLogDrain(id);

  if (!/^\d{1,12}$/.test(id)) return <PageNotFound />;
  if (environment.isError) return <Banner variant="error">Error: {environment.error.message}</Banner>;
  if (!environment.data) return <Spinner label="Loading environment" />;
  return (
    <>
      <PageHeader
        title="New Log Drain"
        description={
          <>
            Send the logs of <Link to={to.environment(id, 'integrations')}>{environment.data.handle}</Link> to
            a service of yours
          </>
        }
      />
      <CreateLogDrainForm
        denial={denial}
        elasticsearchDatabases={(databases.data ?? []).filter(
          (database) => database.type === 'elasticsearch',
        )}
        onSubmit={async (body) => {
          await create.mutateAsync(body);
          navigate(to.environment(id, 'integrations'));
        }}
      />
    </>
  );
}

export { CreateLogDrainRoute as Component };
