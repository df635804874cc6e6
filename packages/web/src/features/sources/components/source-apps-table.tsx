import { deploymentImageLabel, shortSha } from '@berth/core';
import { Link } from 'react-router';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { dateTimeColumn } from '../../../components/ui/data-table-columns.tsx';
import { to } from '../../../lib/paths.ts';

/** An app whose current source is this one, with its current deployment's figures. */
export interface SourceAppRow {
  id: string;
  handle: string;
  gitRef: string;
  gitCommitSha: string;
  gitCommitMessage: string;
  dockerImage: string;
  lastDeployed: string;
}

// spec 2 §2: the source variant of the app list: Handle, ID, Git Ref, Commit Message, Docker Image,
// Last Deployed and an Actions column with View.
const COLUMNS: DataTableColumn<SourceAppRow>[] = [
  {
    id: 'handle',
    header: 'Handle',
    cell: (app) => <Link to={to.app(app.id)}>{app.handle}</Link>,
    sortValue: (app) => app.handle,
  },
  { id: 'id', header: 'ID', cell: (app) => app.id, sortValue: (app) => Number(app.id) },
  { id: 'gitRef', header: 'Git Ref', cell: (app) => app.gitRef || '-', sortValue: (app) => app.gitRef },
  {
    id: 'commitMessage',
    header: 'Commit Message',
    cell: (app) =>
      app.gitCommitSha ? `${shortSha(app.gitCommitSha)} ${app.gitCommitMessage}` : 'Not Provided',
  },
  { id: 'dockerImageName', header: 'Docker Image', cell: (app) => deploymentImageLabel(app.dockerImage) },
  dateTimeColumn('lastDeployed', 'Last Deployed', (app) => app.lastDeployed),
  {
    id: 'actions',
    header: 'Actions',
    cell: (app) => (
      <ButtonLink to={to.app(app.id)} variant="secondary" size="sm" aria-label={`View ${app.handle}`}>
        View
      </ButtonLink>
    ),
  },
];

const searchText = (app: SourceAppRow) => [app.handle, app.id, app.gitRef, app.gitCommitSha, app.dockerImage];

export function SourceAppsTable({
  apps,
  isLoading,
  error,
}: {
  apps: readonly SourceAppRow[];
  isLoading?: boolean;
  error?: Error | null;
}) {
  return (
    <DataTable<SourceAppRow>
      label="Apps"
      rows={apps}
      columns={COLUMNS}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
    />
  );
}
