import { Link } from 'react-router';
import { getRuntimeConfig } from '../../../lib/config.ts';
import { useSession } from '../../../lib/session-store.ts';
import { RequireVerifiedUser } from '../../guards.tsx';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { paths } from '../../paths.ts';
import { AppShell } from '../../shell/app-shell.tsx';
import { PAGE_NOT_FOUND, PageNotFound } from '../../shell/page-not-found.tsx';

/**
 * spec 1 §2: links to login, docs and a status page (the last two when this installation has them).
 * Signed in, the page keeps the shell and its menu: an unknown address is never a dead end.
 */
function NotFoundRoute() {
  const { docsUrl, statusPageUrl } = getRuntimeConfig();
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
      <nav className="not-found-links" aria-label="Helpful links">
        <Link className="button button-primary button-lg button-block" to={paths.login}>
          Go to login
        </Link>
        {docsUrl ? (
          <a
            className="button button-secondary button-lg button-block"
            href={docsUrl}
            target="_blank"
            rel="noreferrer"
          >
            Read the docs
          </a>
        ) : null}
        {statusPageUrl ? (
          <a
            className="button button-secondary button-lg button-block"
            href={statusPageUrl}
            target="_blank"
            rel="noreferrer"
          >
            Check the status page
          </a>
        ) : null}
      </nav>
    </AuthLayout>
  );
}

export { NotFoundRoute as Component };
