import { Link } from 'react-router';
import {
  DataTable,
  type DataTableColumn,
  type DataTableListProps,
} from '../../../components/ui/data-table.tsx';
import { to } from '../../../lib/paths.ts';
import type { AppDependency } from '../api/use-app-dependencies.ts';

const COLUMNS: DataTableColumn<AppDependency>[] = [
  {
    id: 'name',
    header: 'Name',
    cell: (dependency) => (
      <Link
        to={
          dependency.kind === 'Database' ? to.database(dependency.resourceId) : to.app(dependency.resourceId)
        }
      >
        {dependency.name}
      </Link>
    ),
    sortValue: (dependency) => dependency.name,
  },
  {
    id: 'type',
    header: 'Type',
    cell: (dependency) => dependency.kind,
    sortValue: (dependency) => dependency.kind,
  },
  { id: 'relationship', header: 'Relationship', cell: (dependency) => dependency.relationship },
];

const searchText = (dependency: AppDependency) => [dependency.name, dependency.kind, dependency.relationship];

/** spec 2 §2 app Dependencies tab: the databases and apps the app uses. */
export function AppDependenciesTable(props: DataTableListProps<AppDependency>) {
  return (
    <DataTable<AppDependency> label="Dependencies" columns={COLUMNS} searchText={searchText} {...props} />
  );
}
