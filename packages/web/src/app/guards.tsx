import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { useCurrentUser } from '../features/users/api/use-user.ts';
import { isApiError } from '../lib/api-client.ts';
import { isRememberedPath, paths, to } from '../lib/paths.ts';
import { writePersisted } from '../lib/persisted-state.ts';
import { useSession } from '../lib/session-store.ts';

function RedirectToLogin() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    // spec 1 §2: remember the page for after login, except the sign-in pages themselves.
    if (isRememberedPath(location.pathname)) {
      writePersisted('redirectPath', `${location.pathname}${location.search}${location.hash}`);
    }
    navigate(paths.login, { replace: true });
  }, [location, navigate]);
  return null;
}

/** Pages behind login. */
export function RequireSession() {
  const { phase } = useSession();
  if (phase !== 'authenticated') return <RedirectToLogin />;
  return <Outlet />;
}

/**
 * Pages behind login and a verified email (spec 1 §2: unverified users go to the verify page). As a
 * route it renders its child routes; `children` guards a page rendered outside the route tree.
 */
export function RequireVerifiedUser({ children }: { children?: ReactNode }) {
  const user = useCurrentUser();
  if (user.isError) {
    // A 401 has already reset the session and RequireSession is redirecting.
    if (isApiError(user.error) && user.error.status === 401) return <FullPageSpinner />;
    return <Navigate to={to.error(user.error.message)} replace />;
  }
  if (!user.data) return <FullPageSpinner label="Loading your account" />;
  if (!user.data.verified) return <Navigate to={paths.verify} replace />;
  return children ?? <Outlet />;
}
