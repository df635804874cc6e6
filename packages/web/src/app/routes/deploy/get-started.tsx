import type { ReactNode } from 'react';
import { Navigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { DeploySteps } from '../../../features/guided-deploy/components/deploy-steps.tsx';
import { NO_OPERATION_FILTERS } from '../../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../../features/operations/api/use-operations.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 3 §2 /apps/{id}/get-started, "status detection": once the environment and the app are loaded and
 * the app's operations fetched, an app with a deploy goes on to Configure, one without to the git page.
 */
function GetStartedRoute() {
  const { id = '' } = useParams();
  const status = useDeployStatus(id);
  if (typeof status === 'string') return <Navigate replace to={status} />;
  return (
    <>
      <PageHeader title="Get Started" description="Finding where your app’s deploy stands." />
      <DeploySteps current={1} />
      {status.body}
    </>
  );
}

/** Where status detection sends the app, or what the page shows until it knows (or why it cannot). */
function useDeployStatus(id: string): string | { body: ReactNode } {
  const { environments, resources } = useConsoleContext();
  const app = useApp(id);
  const operations = useOperations(`/apps/${encodeURIComponent(id)}/operations`, 1, NO_OPERATION_FILTERS);
  const failure = resources.status === 'error' ? resources.message : (app.error ?? operations.error);
  if (failure) {
    return {
      body: (
        <Banner variant="error">Error: {typeof failure === 'string' ? failure : messageOf(failure)}</Banner>
      ),
    };
  }
  const environment = app.data && environments.find((item) => item.id === app.data.environmentId);
  if (resources.status !== 'success' || !app.data || !operations.data) {
    return { body: <Spinner label="Loading your app" /> };
  }
  if (!environment) {
    return { body: <Banner variant="error">Environment {app.data.environmentId} was not found.</Banner> };
  }
  const deployed =
    app.data.lastDeployOperation !== null ||
    operations.data.operations.some((item) => item.type === 'deploy');
  return deployed ? to.appDeployConfigure(id) : to.appGit(id);
}

export { GetStartedRoute as Component };
