import { useEffect } from 'react';
import { Outlet, type UIMatch, useMatches } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { ToastRegion } from '../components/ui/toast.tsx';
import { useBootSession } from '../features/session/api/use-boot-session.ts';
import { setRouteTitle } from '../lib/document-title.ts';
import { useSession } from '../lib/session-store.ts';
import { useTheme } from '../lib/theme.ts';

/** What a route may say of itself in its `handle`. */
export interface RouteHandle {
  /**
   * The page shows the same before the session is known (login, sign-up): it renders at once, at first
   * paint, and follows the session when the check answers, instead of waiting behind a spinner.
   */
  rendersBeforeSession?: boolean;
  /** The page's name in the document title ("Apps"); the routes it sits in add theirs after it. */
  title?: string;
  /** The page's header names the resource it shows: that name comes first in the title. */
  namedByHeader?: boolean;
}

/** Names the page in the document title from the matched routes' handles (issue 41). */
function useRouteTitle(matches: UIMatch[]): void {
  const handles = matches
    .map((match) => match.handle as RouteHandle | undefined)
    .filter((handle): handle is RouteHandle & { title: string } => handle?.title !== undefined)
    .reverse();
  const pages = handles.map((handle) => handle.title);
  const namedByHeader = handles[0]?.namedByHeader === true;
  const key = pages.join('\n');
  useEffect(() => {
    setRouteTitle({ pages: key ? key.split('\n') : [], namedByHeader });
  }, [key, namedByHeader]);
}

/** Applies the theme and restores the session (spec 3 §4) before any page decides who the visitor is. */
export function RootLayout() {
  useTheme();
  useBootSession();
  const { phase } = useSession();
  const matches = useMatches();
  useRouteTitle(matches);
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
