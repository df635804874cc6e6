import { DEFAULT_TABLE_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '@berth/core';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { type Environment, matchesEnvironmentSearch } from '../api/environment.hal.ts';

/** spec 3 §2: the text of a list with nothing to show. */
export const NO_RESOURCES_FOUND = 'No resources found';

export interface EnvironmentsTableProps {
  environments: readonly Environment[];
  stackNames: ReadonlyMap<string, string>;
}

function positiveInt(value: string | null, fallback: number): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

/** spec 3 §2 list tables: search, page and rows live in the query string; search is debounced. */
export function EnvironmentsTable({ environments, stackNames }: EnvironmentsTableProps) {
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [draft, setDraft] = useState(search);

  useEffect(() => {
    if (draft === search) return;
    const timer = setTimeout(() => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (draft) next.set('search', draft);
          else next.delete('search');
          next.delete('page');
          return next;
        },
        { replace: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, search, setParams]);

  const rows = positiveInt(params.get('rows'), DEFAULT_TABLE_PAGE_SIZE);
  const matching = environments.filter((environment) => matchesEnvironmentSearch(environment, search));
  const pageCount = Math.max(1, Math.ceil(matching.length / rows));
  const page = Math.min(positiveInt(params.get('page'), 1), pageCount);
  const visible = matching.slice((page - 1) * rows, page * rows);

  const goTo = (nextPage: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(nextPage));
      return next;
    });

  return (
    <div className="card">
      <div className="table-toolbar">
        <label className="visually-hidden" htmlFor={searchId}>
          Search environments
        </label>
        <input
          id={searchId}
          className="input table-search"
          type="search"
          placeholder="Search by handle or ID"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <span className="table-count">
          {matching.length} {matching.length === 1 ? 'environment' : 'environments'}
        </span>
      </div>
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Environments</caption>
          <thead>
            <tr>
              <th scope="col">Handle</th>
              <th scope="col">ID</th>
              <th scope="col">Stack</th>
              <th scope="col" className="numeric">
                Apps
              </th>
              <th scope="col" className="numeric">
                Databases
              </th>
            </tr>
          </thead>
          <tbody>
            {visible.length === 0 ? (
              <tr>
                <td colSpan={5} className="table-empty">
                  {NO_RESOURCES_FOUND}
                </td>
              </tr>
            ) : (
              visible.map((environment) => (
                <tr key={environment.id}>
                  <td>
                    <span className="cell-strong">{environment.handle}</span>
                    {environment.type === 'production' ? <span className="badge">production</span> : null}
                  </td>
                  <td>
                    <code>{environment.id}</code>
                  </td>
                  <td>{(environment.stackId && stackNames.get(environment.stackId)) || 'Unknown'}</td>
                  <td className="numeric">{environment.appCount}</td>
                  <td className="numeric">{environment.databaseCount}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <nav className="table-pager" aria-label="Pagination">
          <span>
            Page {page} of {pageCount}
          </span>
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => goTo(page - 1)}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={page >= pageCount} onClick={() => goTo(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
