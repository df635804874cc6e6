import type { ReactNode } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateApp } from '../../../features/apps/api/use-create-app.ts';
import { CreateAppForm } from '../../../features/apps/components/create-app-form.tsx';
import { DatabaseSelectorsList } from '../../../features/databases/components/database-selectors-list.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 3 §2 /create/app?environment_id: "Name your App". */
function CreateAppRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { environments, allStacks, resources } = useConsoleContext();
  const create = useCreateApp();
  const environmentId = params.get('environment_id');
  // spec 2 §2: `dbs=env:type:version,…` prefills the databases the app is created with.
  const dbs = params.get('dbs');

  if (!environmentId) return <Navigate to={paths.selectEnvironment} replace />;

  let body: ReactNode;
  const environment = environments.find((item) => item.id === environmentId);
  if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = <Spinner label="Loading environments" />;
  } else if (!environment) {
    body = <Banner variant="error">Environment {environmentId} was not found.</Banner>;
  } else {
    const stack = allStacks.find((item) => item.id === environment.stackId);
    body = (
      <div className="card form-card">
        <div className="card-body">
          <CreateAppForm
            stackName={stack?.name ?? 'Unknown'}
            environmentHandle={environment.handle}
            onSubmit={async (handle) => {
              const app = await create.mutateAsync({ environmentId: environment.id, handle });
              navigate(to.app(app.id));
            }}
          />
          {dbs ? <DatabaseSelectorsList dbs={dbs} /> : null}
        </div>
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Name your App" description="An app runs your code as one or more services." />
      {body}
    </>
  );
}

export { CreateAppRoute as Component };
