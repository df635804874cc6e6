import { Link } from 'react-router';
import { getRuntimeConfig } from '../../../lib/config.ts';
import { useSession } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';
import { paths } from '../../paths.ts';

/** spec 1 §8: the text of Page Not Found. */
export const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

/** spec 1 §2: links to login, docs and a status page (the last two when this installation has them). */
function NotFoundRoute() {
  const { docsUrl, statusPageUrl } = getRuntimeConfig();
  const signedIn = useSession().phase === 'authenticated';
  return (
    <AuthLayout title="Page Not Found" subtitle={PAGE_NOT_FOUND}>
      <nav className="not-found-links" aria-label="Helpful links">
        {signedIn ? (
          <Link className="button button-primary button-lg button-block" to={paths.environments}>
            Go to environments
          </Link>
        ) : (
          <Link className="button button-primary button-lg button-block" to={paths.login}>
            Go to login
          </Link>
        )}
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
