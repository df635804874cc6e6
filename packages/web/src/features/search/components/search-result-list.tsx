import { Link } from 'react-router';
import { SEARCH_TYPE_LABELS, type SearchResult } from '../../../resources/search/search-result.hal.ts';
import './search.css';

/** Found or remembered resources as links to their pages: what each is, its name, and where it lives. */
export function SearchResultList({ results, label }: { results: readonly SearchResult[]; label: string }) {
  return (
    <ul className="search-results" aria-label={label}>
      {results.map((result) => (
        <li key={result.key}>
          <Link
            to={result.path}
            className="search-result"
            aria-label={`${result.title}, ${SEARCH_TYPE_LABELS[result.type]}, ${result.description}`}
          >
            <span className="search-result-type">{SEARCH_TYPE_LABELS[result.type]}</span>
            <span className="search-result-title">{result.title}</span>
            <span className="search-result-description">{result.description}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
