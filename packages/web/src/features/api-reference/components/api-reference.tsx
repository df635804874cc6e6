import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { type QueryLike, QueryState } from '../../../components/ui/query-state.tsx';
import { groupByTag, listOperations, matchesFilter, type OpenApiDocument } from '../openapi.ts';
import { OperationEntry } from './operation-entry.tsx';
import { Prose } from './schema-view.tsx';
import './api-reference.css';

export interface ApiFamilyDocument {
  /** The service family (`auth`, `api`, …): the section's anchor. */
  family: string;
  label: string;
  query: QueryLike<OpenApiDocument>;
}

const FILTER_PARAM = 'filter';

function FamilySection({ family, filter }: { family: ApiFamilyDocument; filter: string }) {
  const headingId = `api-family-${family.family}`;
  return (
    <section className="api-family" id={family.family} aria-labelledby={headingId}>
      {/* Until the document names the family, its label does. */}
      {family.query.status !== 'success' ? (
        <h2 id={headingId} className="api-family-fallback-title">
          {family.label}
        </h2>
      ) : null}
      <QueryState
        query={family.query}
        loadingLabel={`Loading the ${family.label} reference`}
        skeletonLines={4}
      >
        {(document) => (
          <FamilyBody document={document} headingId={headingId} label={family.label} filter={filter} />
        )}
      </QueryState>
    </section>
  );
}

function FamilyBody({
  document,
  headingId,
  label,
  filter,
}: {
  document: OpenApiDocument;
  headingId: string;
  label: string;
  filter: string;
}) {
  const operations = useMemo(() => listOperations(document), [document]);
  const shown = operations.filter((operation) => matchesFilter(operation, filter));
  const groups = groupByTag(document, shown);
  const server = document.servers?.[0]?.url;
  return (
    <>
      <header className="api-family-header">
        <div className="api-family-title">
          <h2 id={headingId}>{document.info.title}</h2>
          <span className="badge">{label}</span>
          <span className="badge">v{document.info.version}</span>
        </div>
        {document.info.description ? <p className="page-description">{document.info.description}</p> : null}
        {server ? (
          <p className="schema-detail">
            Base URL <code>{server}</code> · {operations.length} operations
          </p>
        ) : null}
      </header>
      {operations.length === 0 ? (
        <p className="api-none">No {label} endpoints yet.</p>
      ) : groups.length === 0 ? (
        <p className="api-none">No {label} operations match the filter.</p>
      ) : (
        groups.map((group) => {
          const tagId = `${headingId}-${group.tag.replace(/[^A-Za-z0-9]+/g, '-')}`;
          return (
            <section key={group.tag} className="api-tag" aria-labelledby={tagId}>
              <h3 id={tagId} className="api-tag-title">
                {group.tag}
              </h3>
              {group.description ? (
                <p className="schema-description">
                  <Prose text={group.description} />
                </p>
              ) : null}
              <div className="api-op-list">
                {group.operations.map((operation) => (
                  <OperationEntry key={operation.key} document={document} operation={operation} />
                ))}
              </div>
            </section>
          );
        })
      )}
    </>
  );
}

/**
 * The API reference: each service family's OpenAPI document, its operations grouped by tag, with a
 * filter kept in the URL (`?filter=`) so a shared link shows the same operations.
 */
export function ApiReference({ families }: { families: readonly ApiFamilyDocument[] }) {
  const [params, setParams] = useSearchParams();
  const filter = params.get(FILTER_PARAM) ?? '';
  const setFilter = (value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(FILTER_PARAM, value);
        else next.delete(FILTER_PARAM);
        return next;
      },
      { replace: true },
    );

  if (families.length === 0) return <EmptyState title="No API documents" />;
  return (
    <div className="api-reference">
      <div className="api-toolbar">
        <input
          type="search"
          className="input api-filter"
          aria-label="Filter operations"
          placeholder="Filter by method, path, tag or summary"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
        <nav className="api-family-nav" aria-label="Service families">
          {families.map((family) => (
            <a key={family.family} href={`#${family.family}`}>
              {family.label}
            </a>
          ))}
        </nav>
      </div>
      {families.map((family) => (
        <FamilySection key={family.family} family={family} filter={filter} />
      ))}
    </div>
  );
}
