import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { logOut } from '../../../features/session/api/use-logout.ts';
import { paths } from '../../../lib/paths.ts';

/** contract §3.5 "Logout": revoke both tokens, clear the store, back to login. */
function LogoutRoute() {
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    // StrictMode runs effects twice in development; the tokens are deleted once.
    if (started.current) return;
    started.current = true;
    void logOut().finally(() => navigate(paths.login, { replace: true }));
  }, [navigate]);
  return <FullPageSpinner label="Logging out" />;
}

export { LogoutRoute as Component };
