import { Link } from 'react-router';
import type { AppDeployment } from '../api/app.hal.ts';

/** spec 2 §4 deployment badge: Building when running, Queued, Failed, Deployed, otherwise Not deployed. */
export function deploymentBadge(status: string): string {
  if (status === 'running') return 'Building';
  if (status === 'queued') return 'Queued';
  if (status === 'failed') return 'Failed';
  if (status === 'succeeded') return 'Deployed';
  return 'Not deployed';
}

/** The app's deployments in a small table (the deployments screens hold the rich view). */
export function AppDeploymentsTable({ deployments }: { deployments: readonly AppDeployment[] }) {
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
          {deployments.length === 0 ? (
            <tr>
              <td colSpan={6} className="table-empty">
                No deployments found
              </td>
            </tr>
          ) : (
            deployments.map((deployment) => (
              <tr key={deployment.id}>
                <td>
                  <Link to={`/deployments/${deployment.id}`}>{deployment.id}</Link>
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
                <td>{formatDate(deployment.createdAt)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export function formatDate(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}
