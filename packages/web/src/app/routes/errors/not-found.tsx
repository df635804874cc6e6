import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { RequireVerifiedUser } from '../../guards.tsx';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { AppShell } from '../../shell/app-shell.tsx';
import { NotFoundLinks, PAGE_NOT_FOUND, PageNotFound } from '../../shell/page-not-found.tsx';

/**
 * spec 1 §2: links to login, docs and a status page (the last two when this installation has them).
 * Signed in, the page keeps the shell and its menu: an unknown address is never a dead end.
 */
function NotFoundRoute() {
  const signedIn = useSession().phase === 'authenticated';
  if (signedIn) {
    return (
      <RequireVerifiedUser>
        <AppShell>
          <PageNotFound />
        </AppShell>
      </RequireVerifiedUser>
    );
  }
  return (
    <AuthLayout title="Page Not Found" subtitle={PAGE_NOT_FOUND}>
      <NotFoundLinks home={paths.login} label="Go to login" block />
    </AuthLayout>
  );
}

export { NotFoundRoute as Component };
