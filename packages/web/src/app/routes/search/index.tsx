import { SEARCH_QUERY_MAX_LENGTH, searchMessages } from '@berth/core';
import { type ReactNode, useCallback, useId } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useRememberedResources } from '../../../features/search/api/use-remembered-resources.ts';
import { useSearch } from '../../../features/search/api/use-search.ts';
import { SearchResultList } from '../../../features/search/components/search-result-list.tsx';
import { useDebouncedDraft } from '../../../lib/use-debounced-draft.ts';
import type { SearchResult } from '../../../resources/search/search-result.hal.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="search-section" aria-labelledby={id}>
      <h2 id={id} className="search-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** A list, or its placeholder text when it has nothing. */
function ListOr({ results, label, empty }: { results: SearchResult[]; label: string; empty: string }) {
  return results.length ? (
    <SearchResultList results={results} label={label} />
  ) : (
    <p className="search-empty">{empty}</p>
  );
}

/** spec 3 §2: an empty search shows Recently Viewed and Most Visited, 5 each. */
function Remembered() {
  const { isPending, error, recentlyViewed, mostVisited } = useRememberedResources();
  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  if (isPending) return <Spinner label="Loading recent resources" />;
  const empty = 'The apps, databases and other resources you open are listed here.';
  return (
    <div className="search-columns">
      <Section title="Recently Viewed">
        <ListOr results={recentlyViewed} label="Recently Viewed" empty={empty} />
      </Section>
      <Section title="Most Visited">
        <ListOr results={mostVisited} label="Most Visited" empty={empty} />
      </Section>
    </div>
  );
}

/**
 * At most 15 results (spec 3 §9): resources, then deployments, each with the spec's placeholder. Nothing
 * but a spinner until the typed text's own answer is there (the status says it is searching).
 */
function Results({ results, error }: { results: SearchResult[] | undefined; error: Error | null }) {
  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  if (!results) return <Spinner decorative />;
  const resources = results.filter((result) => result.type !== 'deployment');
  const deployments = results.filter((result) => result.type === 'deployment');
  return (
    <div className="search-columns">
      <Section title="Resources">
        <ListOr results={resources} label="Resources found" empty={searchMessages.noResults} />
      </Section>
      <Section title="Deployments">
        <ListOr results={deployments} label="Deployments found" empty={searchMessages.noDeployments} />
      </Section>
    </div>
  );
}

/** spec 3 §2 /search?search=: global search over every resource the user may read. */
function SearchRoute() {
  const [params, setParams] = useSearchParams();
  const text = (params.get('search') ?? '').slice(0, SEARCH_QUERY_MAX_LENGTH);
  const inputId = useId();
  // The box types freely; the address (and the search) follows 300 ms later (spec 3 §9); a new address
  // (Back, a link) shows its own text in the box.
  const [draft, setDraft] = useDebouncedDraft(
    text,
    useCallback((next: string) => setParams(next ? { search: next } : {}, { replace: true }), [setParams]),
  );

  const trimmed = text.trim();
  const search = useSearch(trimmed);
  // Only an answer to the text in the box is shown: none while the address has yet to follow the typing,
  // nor while its answer is on its way.
  const current = draft === text && trimmed !== '' && !search.isPlaceholderData;
  const results = current ? search.data : undefined;
  const error = current ? search.error : null;
  let status = '';
  if (draft.trim() && !error) {
    status = results
      ? `${results.length} ${results.length === 1 ? 'result' : 'results'} for “${trimmed}”`
      : 'Searching…';
  }
  return (
    <>
      <PageHeader title="Search" description="Find apps, databases, environments, endpoints and more." />
      <div className="search-page">
        <label className="visually-hidden" htmlFor={inputId}>
          Search resources
        </label>
        <input
          id={inputId}
          className="input search-page-input"
          type="search"
          placeholder="Search by name, host, git ref, image or id"
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        {draft.trim() ? <Results results={results} error={error} /> : <Remembered />}
        {/* Said as it changes: searching, then how many were found (as the palette says it). */}
        <p className="visually-hidden" role="status">
          {status}
        </p>
      </div>
    </>
  );
}

export { SearchRoute as Component };
