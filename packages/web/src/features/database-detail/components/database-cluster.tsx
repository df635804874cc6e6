import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { to } from '../../../lib/paths.ts';
import { useDatabaseDependents } from '../../../resources/databases/use-databases.ts';

/** spec 2 §2 Cluster tab: the databases replicating this one; replicas are created only with the CLI. */
export function DatabaseCluster({ databaseId }: { databaseId: string }) {
  const dependents = useDatabaseDependents(databaseId);
  return (
    <div className="section-stack">
      <Banner variant="info">Replicas can be created only via the CLI.</Banner>
      <QueryState query={dependents} loadingLabel="Loading replicas">
        {(list) =>
          list.length === 0 ? (
            <EmptyState title="No resources found" description="This database has no replicas." />
          ) : (
            <StaticTable caption="Replicas" columns={['Handle', 'ID', 'Type', 'Status', 'Created']}>
              {list.map((replica) => (
                <tr key={replica.id}>
                  <td>
                    <Link to={to.database(replica.id)}>{replica.handle}</Link>
                  </td>
                  <td>{replica.id}</td>
                  <td>{replica.type}</td>
                  <td>{replica.status}</td>
                  <td>{formatDateTime(replica.createdAt)}</td>
                </tr>
              ))}
            </StaticTable>
          )
        }
      </QueryState>
    </div>
  );
}
