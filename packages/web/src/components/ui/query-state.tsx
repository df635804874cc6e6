import { plainDenial } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../lib/api-client.ts';
import { useEnvironmentName } from '../../lib/environment-names.tsx';
import { Banner } from './banner.tsx';
import { Button } from './button.tsx';
import { loadErrorText } from './data-table.tsx';

/** What QueryState reads of a TanStack query result. */
export interface QueryLike<T> {
  status: 'pending' | 'error' | 'success';
  data: T | undefined;
  error: Error | null;
  refetch: () => Promise<unknown>;
}

export interface QueryStateProps<T> {
  query: QueryLike<T>;
  /** Names what is loading for assistive technology ("Loading deployment"). */
  loadingLabel: string;
  /**
   * The page's header above the error, where the loaded children would have drawn it from the data (a
   * detail page that failed to load still says what it is).
   */
  errorHeader?: ReactNode;
  /**
   * Where a 404 leads back to: the list the missing thing would be in ("Apps", `/apps`). A 404 gets the
   * server's message as its heading and this link instead of Retry (retrying a missing thing finds nothing).
   */
  notFoundBack?: { label: string; to: string };
  /** Placeholder lines while loading. */
  skeletonLines?: number;
  /** Whether the loaded data has nothing to show; `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  /** The empty state, with the spec's text (core `emptyStateMessages`) where it gives one. */
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}

/**
 * The three states every query has before its content (conventions: loading shows skeletons, empty and
 * error use the spec's texts): a skeleton while pending, the server's message with Retry on failure,
 * the empty state, then the children with the data.
 */
export function QueryState<T>({
  query,
  loadingLabel,
  errorHeader,
  notFoundBack,
  skeletonLines = 3,
  isEmpty,
  empty,
  children,
}: QueryStateProps<T>) {
  const environmentName = useEnvironmentName();
  if (query.status === 'error' && isApiError(query.error) && query.error.status === 404) {
    return <NotFound message={query.error.message} back={notFoundBack} />;
  }
  if (query.status === 'error') {
    const message = query.error?.message ?? 'Unknown error';
    // A denial the server answered reads as the buttons' do: the rule, then its plain words (issue 20).
    const plain = plainDenial(message, environmentName);
    return (
      <>
        {errorHeader}
        <Banner
          variant="error"
          actions={
            <Button variant="secondary" size="sm" onClick={() => void query.refetch()}>
              Retry
            </Button>
          }
        >
          {loadErrorText(message)}
          {plain ? ' ' : null}
          {plain ? <span className="banner-detail">{plain}</span> : null}
        </Banner>
      </>
    );
  }
  if (query.status === 'pending' || query.data === undefined) {
    return <Skeleton label={loadingLabel} lines={skeletonLines} />;
  }
  if (isEmpty?.(query.data)) return <>{empty ?? null}</>;
  return <>{children(query.data)}</>;
}

/**
 * Issue 41: a missing resource inside the console is named as a heading ("App not found") with a way
 * back to its list (Home when the page names none), not an error to retry.
 */
function NotFound({ message, back }: { message: string; back: { label: string; to: string } | undefined }) {
  return (
    <section className="not-found-state" aria-labelledby="not-found-title">
      <header className="page-header">
        <h1 className="page-title" id="not-found-title">
          {message}
        </h1>
      </header>
      <p>It may have been deprovisioned, or the address may be wrong.</p>
      <p>
        <Link to={back?.to ?? '/'}>{back ? `Back to ${back.label}` : 'Back to Home'}</Link>
      </p>
    </section>
  );
}

/** Grey placeholder lines, announced as one status with its label. */
export function Skeleton({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <div className="skeleton-block" role="status" aria-label={label}>
      <span className="visually-hidden">{label}</span>
      {Array.from({ length: lines }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholder lines have no identity
        <span key={index} className="skeleton" aria-hidden="true" />
      ))}
    </div>
  );
}
