import { Navigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { isHomeEnabled } from '../../feature-flags.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §2: "/" redirects by state; with the home flag off it goes to the environments page. */
function IndexRedirect() {
  const { organization } = useConsoleContext();
  return (
    <Navigate to={isHomeEnabled(organization?.id ?? null) ? paths.homeBeta : paths.environments} replace />
  );
}

export { IndexRedirect as Component };
