import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import type { AppOperation } from '../api/app.hal.ts';
import { formatDate } from './app-deployments-table.tsx';

export interface AppOperationsTableProps {
  operations: readonly AppOperation[];
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}

/** The app's operations (its services' too), newest first, server-paged (contract §5.11). */
export function AppOperationsTable({ operations, page, pageCount, onPage }: AppOperationsTableProps) {
  return (
    <div className="card">
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Activity</caption>
          <thead>
            <tr>
              <th scope="col">ID</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Resource</th>
              <th scope="col">User</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {operations.length === 0 ? (
              <tr>
                <td colSpan={6} className="table-empty">
                  No resources found
                </td>
              </tr>
            ) : (
              operations.map((operation) => (
                <tr key={operation.id}>
                  <td>
                    <Link to={`/operations/${operation.id}`}>{operation.id}</Link>
                  </td>
                  <td>{operation.type}</td>
                  <td>
                    <span className="badge">{operation.status}</span>
                  </td>
                  <td>{operation.resourceHandle}</td>
                  <td>{operation.userName}</td>
                  <td>{formatDate(operation.updatedAt)}</td>
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
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
