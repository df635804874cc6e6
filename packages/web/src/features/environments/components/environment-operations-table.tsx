import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { NO_RESOURCES_FOUND } from '../../../components/ui/data-table.tsx';
import type { EnvironmentOperation } from '../api/environment-resources.hal.ts';

export interface EnvironmentOperationsTableProps {
  operations: readonly EnvironmentOperation[] | undefined;
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  error?: Error | null;
}

const time = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

function formatTime(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : time.format(date);
}

/**
 * The Activity tab of an environment: its operations, newest first, one server page at a time.
 * A minimal list; the activity feature's full list (filters, elapsed time, re-run) can replace it.
 */
export function EnvironmentOperationsTable({
  operations,
  page,
  pageCount,
  onPage,
  error,
}: EnvironmentOperationsTableProps) {
  let rows: ReactNode;
  if (error) {
    rows = (
      <tr>
        <td colSpan={5} className="table-empty" role="alert">
          Error: {error.message}
        </td>
      </tr>
    );
  } else if (!operations) {
    rows = (
      <tr>
        <td colSpan={5} className="table-empty">
          Loading…
        </td>
      </tr>
    );
  } else if (operations.length === 0) {
    rows = (
      <tr>
        <td colSpan={5} className="table-empty">
          {NO_RESOURCES_FOUND}
        </td>
      </tr>
    );
  } else {
    rows = operations.map((operation) => (
      <tr key={operation.id}>
        <td>{operation.type}</td>
        <td>
          <span className="badge">{operation.status}</span>
        </td>
        <td>{operation.resource}</td>
        <td>{operation.user}</td>
        <td>{formatTime(operation.createdAt)}</td>
      </tr>
    ));
  }
  return (
    <div className="card">
      <div className="table-wrap">
        <table className="table">
          <caption className="visually-hidden">Activity</caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Resource</th>
              <th scope="col">User</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>{rows}</tbody>
        </table>
      </div>
      <div className="table-pager">
        <span>
          Page {page} of {pageCount}
        </span>
        <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="sm" variant="secondary" disabled={page >= pageCount} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </div>
  );
}
