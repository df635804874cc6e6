import { Navigate } from 'react-router';
import { paths } from '../../../lib/paths.ts';

/** spec 1 §2 /settings: the settings root opens the member list. */
function SettingsIndexRoute() {
  return <Navigate to={paths.teamMembers} replace />;
}

export { SettingsIndexRoute as Component };
