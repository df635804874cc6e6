import { Outlet } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { ToastRegion } from '../components/ui/toast.tsx';
import { useBootSession } from '../features/session/api/use-boot-session.ts';
import { useSession } from '../lib/session-store.ts';
import { useTheme } from '../lib/theme.ts';

/** Applies the theme and restores the session (spec 3 §4) before any page decides who the visitor is. */
export function RootLayout() {
  useTheme();
  useBootSession();
  const { phase } = useSession();
  if (phase === 'booting') return <FullPageSpinner label="Loading Berth" />;
  return (
    <>
      <Outlet />
      <ToastRegion />
    </>
  );
}
