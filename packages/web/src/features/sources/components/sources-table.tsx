import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { numberColumn } from '../../../components/ui/data-table-columns.tsx';
import { to } from '../../../lib/paths.ts';
import { type Source, sourceName } from '../../../resources/sources/source.hal.ts';
import { CommitDots } from './commit-dots.tsx';

// spec 3 §2: the sort keys are liveCommits, apps and displayName.
const COLUMNS: DataTableColumn<Source>[] = [
  {
    id: 'displayName',
    header: 'Display Name',
    cell: (source) => <Link to={to.source(source.id)}>{sourceName(source)}</Link>,
    sortValue: (source) => sourceName(source).toLowerCase(),
  },
  numberColumn('apps', 'Apps', (source) => source.apps),
  { id: 'deployments', header: 'Deployments', cell: (source) => source.deployments, align: 'right' },
  {
    id: 'liveCommits',
    header: 'Live Commits',
    cell: (source) => <CommitDots commits={source.liveCommits} />,
    sortValue: (source) => source.liveCommits.length,
  },
];

const searchText = (source: Source) => [sourceName(source), source.url, source.id];

export function SourcesTable({
  sources,
  isLoading,
  error,
  toolbar,
}: {
  sources: readonly Source[];
  isLoading?: boolean;
  error?: Error | null;
  toolbar?: ReactNode;
}) {
  return (
    <DataTable<Source>
      label="Sources"
      rows={sources}
      columns={COLUMNS}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      toolbar={toolbar}
      searchPlaceholder="Search by name, URL or ID"
    />
  );
}
