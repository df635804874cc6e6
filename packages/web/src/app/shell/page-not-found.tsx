import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { getRuntimeConfig } from '../../lib/config.ts';
import { paths } from '../paths.ts';

/** spec 1 §8: the text of Page Not Found. */
export const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

/**
 * Page Not Found inside the shell: a signed-in user who opens an unknown page, or an unknown sub-path
 * of a resource (`/apps/1/git`), keeps the menu (spec 1 §2: links to docs and a status page too).
 */
export function PageNotFound() {
  const { docsUrl, statusPageUrl } = getRuntimeConfig();
  return (
    <>
      <PageHeader title="Page Not Found" description={PAGE_NOT_FOUND} />
      <nav className="not-found-links not-found-links-inline" aria-label="Helpful links">
        <Link className="button button-primary button-md" to={paths.environments}>
          Go to environments
        </Link>
        {docsUrl ? (
          <a className="button button-secondary button-md" href={docsUrl} target="_blank" rel="noreferrer">
            Read the docs
          </a>
        ) : null}
        {statusPageUrl ? (
          <a
            className="button button-secondary button-md"
            href={statusPageUrl}
            target="_blank"
            rel="noreferrer"
          >
            Check the status page
          </a>
        ) : null}
      </nav>
    </>
  );
}
