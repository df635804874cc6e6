import { emptyStateMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateDatabase } from '../../../features/databases/api/use-create-database.ts';
import { ChooseEnvironment } from '../../../features/databases/components/choose-environment.tsx';
import { CreateDatabaseForm } from '../../../features/databases/components/create-database-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useDatabaseImages } from '../../../resources/databases/use-databases.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 /create/db?environment_id: "Create database". Without environment_id the environment is
 * chosen first (the shared /select/env chooser leads on to app creation, so this page asks itself).
 */
function CreateDatabaseRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { environments, resources } = useConsoleContext();
  const images = useDatabaseImages();
  const create = useCreateDatabase();
  const environmentId = params.get('environment_id') ?? '';
  const denial = useActionDenial('database.create', environmentId || null);

  let body: ReactNode;
  const environment = environments.find((item) => item.id === environmentId);
  if (resources.status === 'error') {
    body = <Banner variant="error">Error: {resources.message}</Banner>;
  } else if (resources.status !== 'success') {
    body = <Spinner label="Loading environments" />;
  } else if (!environmentId) {
    body =
      environments.length === 0 ? (
        <EmptyState
          title={emptyStateMessages.noEnvironments}
          description="Create an environment first, then a database in it."
        />
      ) : (
        <div className="card form-card">
          <div className="card-body">
            <ChooseEnvironment environments={environments} hrefFor={to.createDatabase} />
          </div>
        </div>
      );
  } else if (!environment) {
    body = <Banner variant="error">Environment {environmentId} was not found.</Banner>;
  } else if (images.isPending) {
    body = <Spinner label="Loading database types" />;
  } else if (images.error) {
    body = <Banner variant="error">Error: {images.error.message}</Banner>;
  } else {
    body = (
      <div className="card form-card">
        <div className="card-body">
          <CreateDatabaseForm
            environmentHandle={environment.handle}
            images={images.data}
            denial={denial}
            onSubmit={async (values) => {
              const database = await create.mutateAsync({
                environmentId: environment.id,
                handle: values.handle,
                type: values.image.type,
                databaseImageId: values.image.id,
                enableBackups: values.enableBackups,
                containerSizeMb: values.containerSizeMb,
                diskSizeGb: values.diskSizeGb,
              });
              navigate(to.database(database.id));
            }}
          />
        </div>
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Create Database" description="A managed database in one of your environments." />
      {body}
    </>
  );
}

export { CreateDatabaseRoute as Component };
