import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';

/** spec 1 §6: 2FA pages need an elevated token; without one, re-enter credentials and come back. */
export function RequireElevation({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!validElevatedToken(session)) {
    return <Navigate to={to.elevate(`${location.pathname}${location.search}`)} replace />;
  }
  return <>{children}</>;
}
