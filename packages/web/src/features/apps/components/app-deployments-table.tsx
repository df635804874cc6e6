import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { loadErrorText } from '../../../components/ui/data-table.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { to } from '../../../lib/paths.ts';
import type { Deployment } from '../../../resources/deployments/deployment.hal.ts';

/** spec 2 §4 deployment badge: Building when running, Queued, Failed, Deployed, otherwise Not deployed. */
export function deploymentBadge(status: string): string {
  if (status === 'running') return 'Building';
  if (status === 'queued') return 'Queued';
  if (status === 'failed') return 'Failed';
  if (status === 'succeeded') return 'Deployed';
  return 'Not deployed';
}

export interface AppDeploymentsTableProps {
  deployments: readonly Deployment[];
  /** While the list loads a spinner stands in for the rows. */
  isLoading?: boolean;
  /** A failed load shows 'Error: {message}' instead of the empty text. */
  error?: Error | null;
}

/** The app's deployments in a small table (the deployments screens hold the rich view). */
export function AppDeploymentsTable({
  deployments,
  isLoading = false,
  error = null,
}: AppDeploymentsTableProps) {
  let placeholder: ReactNode = null;
  if (error) {
    placeholder = (
      <td colSpan={6} className="table-empty" role="alert">
        {loadErrorText(error.message)}
      </td>
    );
  } else if (isLoading) {
    placeholder = (
      <td colSpan={6} className="table-empty">
        <Spinner label="Loading deployments" />
      </td>
    );
  } else if (deployments.length === 0) {
    placeholder = (
      <td colSpan={6} className="table-empty">
        No deployments found
      </td>
    );
  }
  return (
    <div className="card table-wrap">
      <table className="table">
        <caption className="visually-hidden">Deployments</caption>
        <thead>
          <tr>
            <th scope="col">ID</th>
            <th scope="col">Status</th>
            <th scope="col">Git Ref</th>
            <th scope="col">Commit</th>
            <th scope="col">Docker Image</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {placeholder ? (
            <tr>{placeholder}</tr>
          ) : (
            deployments.map((deployment) => (
              <tr key={deployment.id}>
                <td>
                  <Link to={to.deployment(deployment.id)}>{deployment.id}</Link>
                </td>
                <td>
                  <span className="badge">{deploymentBadge(deployment.status)}</span>
                </td>
                <td>{deployment.gitRef || 'Not Provided'}</td>
                <td>
                  {deployment.gitCommitSha ? <code>{deployment.gitCommitSha.slice(0, 7)}</code> : null}{' '}
                  {deployment.gitCommitMessage || 'Not Provided'}
                </td>
                <td>{deployment.dockerImage || 'Dockerfile Build'}</td>
                <td>{formatDateTime(deployment.createdAt)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
