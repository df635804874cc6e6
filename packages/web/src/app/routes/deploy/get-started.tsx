import { Navigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
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
  const { environments, resources } = useConsoleContext();
  const app = useApp(id);
  const operations = useOperations(`/apps/${encodeURIComponent(id)}/operations`, 1, NO_OPERATION_FILTERS);
  const failure = resources.status === 'error' ? resources.message : (app.error ?? operations.error);
  if (failure) {
    return (
      <Banner variant="error">Error: {typeof failure === 'string' ? failure : messageOf(failure)}</Banner>
    );
  }
  const environment = app.data && environments.find((item) => item.id === app.data.environmentId);
  if (resources.status !== 'success' || !app.data || !operations.data) {
    return <Spinner label="Loading your app" />;
  }
  if (!environment)
    return <Banner variant="error">Environment {app.data.environmentId} was not found.</Banner>;
  const deployed =
    app.data.lastDeployOperation !== null ||
    operations.data.operations.some((item) => item.type === 'deploy');
  return <Navigate replace to={deployed ? to.appDeployConfigure(id) : to.appGit(id)} />;
}

export { GetStartedRoute as Component };
