import { Link } from 'react-router';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { getRuntimeConfig } from '../../lib/config.ts';
import { paths } from '../../lib/paths.ts';

/** spec 1 §8: the text of Page Not Found. */
export const PAGE_NOT_FOUND =
  "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.";

/**
 * The links Page Not Found offers (spec 1 §2): the way home, and the docs and status page when this
 * installation has them. Inside the shell they sit inline; on the signed-out page they fill the card.
 */
export function NotFoundLinks({ home, label, block }: { home: string; label: string; block?: boolean }) {
  const { docsUrl, statusPageUrl } = getRuntimeConfig();
  const size = block ? 'button-lg button-block' : 'button-md';
  return (
    <nav
      className={block ? 'not-found-links' : 'not-found-links not-found-links-inline'}
      aria-label="Helpful links"
    >
      <Link className={`button button-primary ${size}`} to={home}>
        {label}
      </Link>
      {docsUrl ? (
        <a className={`button button-secondary ${size}`} href={docsUrl} target="_blank" rel="noreferrer">
          Read the docs
        </a>
      ) : null}
      {statusPageUrl ? (
        <a
          className={`button button-secondary ${size}`}
          href={statusPageUrl}
          target="_blank"
          rel="noreferrer"
        >
          Check the status page
        </a>
      ) : null}
    </nav>
  );
}

/**
 * Page Not Found inside the shell: a signed-in user who opens an unknown page, or an unknown sub-path
 * of a resource (`/apps/1/git`), keeps the menu.
 */
export function PageNotFound() {
  return (
    <>
      <PageHeader title="Page Not Found" description={PAGE_NOT_FOUND} />
      <NotFoundLinks home={paths.environments} label="Go to environments" />
    </>
  );
}
