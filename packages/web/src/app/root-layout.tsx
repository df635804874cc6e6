import { Outlet, useMatches } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { ToastRegion } from '../components/ui/toast.tsx';
import { useBootSession } from '../features/session/api/use-boot-session.ts';
import { useSession } from '../lib/session-store.ts';
import { useTheme } from '../lib/theme.ts';

/** What a route may say of itself in its `handle`. */
export interface RouteHandle {
  /**
   * The page shows the same before the session is known (login, sign-up): it renders at once, at first
   * paint, and follows the session when the check answers, instead of waiting behind a spinner.
   */
  rendersBeforeSession?: boolean;
}

/** Applies the theme and restores the session (spec 3 §4) before any page decides who the visitor is. */
export function RootLayout() {
  useTheme();
  useBootSession();
  const { phase } = useSession();
  const matches = useMatches();
  const rendersBeforeSession = matches.some(
    (match) => (match.handle as RouteHandle | undefined)?.rendersBeforeSession,
  );
  if (phase === 'booting' && !rendersBeforeSession) return <FullPageSpinner label="Loading Berth" />;
  return (
    <>
      <Outlet />
      <ToastRegion />
    </>
  );
}
