import { Navigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';
import { isHomeEnabled } from '../../feature-flags.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /home-beta, the home dashboard's beta address: Home lives at "/" now, so it goes there (and
 * to the environments, as the home page does, when the home flag is off).
 */
function HomeBetaRedirect() {
  const { organization } = useConsoleContext();
  return <Navigate to={isHomeEnabled(organization?.id ?? null) ? paths.root : paths.environments} replace />;
}

export { HomeBetaRedirect as Component };
