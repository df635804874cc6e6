import { deploymentBadge, deploymentImageLabel, shortSha } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { valueColumn } from '../../../components/ui/data-table-columns.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { Deployment } from '../../../resources/deployments/deployment.hal.ts';
import { DeploymentBadge } from './deployment-badge.tsx';
import './deployments.css';
import { to } from '../../../lib/paths.ts';

/** A deployment with the names the route resolved for it (app → environment). */
export interface DeploymentRow {
  deployment: Deployment;
  appHandle: string;
  environmentHandle: string;
}

export function CommitCell({ deployment }: { deployment: Deployment }) {
  if (!deployment.gitCommitSha) return <span className="muted">Not Provided</span>;
  const sha = shortSha(deployment.gitCommitSha);
  return (
    <span className="commit-cell">
      {deployment.gitCommitUrl ? (
        <a href={deployment.gitCommitUrl} target="_blank" rel="noreferrer">
          <code>{sha}</code>
        </a>
      ) : (
        <code>{sha}</code>
      )}{' '}
      <span className="commit-message">{deployment.gitCommitMessage}</span>
    </span>
  );
}

const COLUMNS: DataTableColumn<DeploymentRow>[] = [
  {
    id: 'status',
    header: 'Status',
    cell: (row) => <DeploymentBadge status={row.deployment.status} />,
    sortValue: (row) => deploymentBadge(row.deployment.status),
  },
  {
    id: 'app',
    header: 'App',
    cell: (row) =>
      row.deployment.appId ? <Link to={to.app(row.deployment.appId)}>{row.appHandle}</Link> : row.appHandle,
    sortValue: (row) => row.appHandle,
  },
  valueColumn('environment', 'Environment', (row) => row.environmentHandle),
  {
    id: 'gitRef',
    header: 'Git Ref',
    cell: (row) => row.deployment.gitRef || '-',
    sortValue: (row) => row.deployment.gitRef,
  },
  { id: 'commit', header: 'Commit', cell: (row) => <CommitCell deployment={row.deployment} /> },
  valueColumn('dockerImage', 'Docker Image', (row) => deploymentImageLabel(row.deployment.dockerImage)),
  {
    id: 'created',
    header: 'Created',
    cell: (row) => (
      <Link to={to.deployment(row.deployment.id)}>{formatDateTime(row.deployment.createdAt)}</Link>
    ),
    sortValue: (row) => row.deployment.createdAt,
  },
];

const searchText = (row: DeploymentRow) => [
  row.appHandle,
  row.environmentHandle,
  row.deployment.gitRef,
  row.deployment.gitCommitSha,
  row.deployment.dockerImage,
  row.deployment.status,
  row.deployment.id,
];

export interface DeploymentsTableProps {
  rows: readonly DeploymentRow[];
  isLoading?: boolean;
  error?: Error | null;
  toolbar?: ReactNode;
}

/** spec 2 §2 deployments overview: status badge, app, environment, git ref, commit, image, created. */
export function DeploymentsTable({ rows, isLoading, error, toolbar }: DeploymentsTableProps) {
  return (
    <DataTable<DeploymentRow>
      label="Deployments"
      rows={rows}
      columns={COLUMNS}
      getRowId={(row) => row.deployment.id}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search by app, environment, git ref, commit or image"
    />
  );
}
