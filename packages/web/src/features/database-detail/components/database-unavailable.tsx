import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { to } from '../../../lib/paths.ts';
import type { Database } from '../../../resources/databases/database.hal.ts';

/** The header's mark of a database its runtime says cannot run now (issue 39). */
export function DatabaseUnavailableBadge({ database }: { database: Pick<Database, 'statusProblem'> }) {
  return database.statusProblem ? <span className="badge badge-warning">Unavailable</span> : null;
}

/**
 * Why the database cannot run (its node is lost), with the way back: a restore from one of its backups,
 * which brings it up on another node.
 */
export function DatabaseUnavailableBanner({
  database,
}: {
  database: Pick<Database, 'id' | 'statusProblem'>;
}) {
  if (!database.statusProblem) return null;
  return (
    <Banner
      variant="error"
      title="Unavailable"
      actions={<Link to={to.database(database.id, 'backups')}>Restore from a backup</Link>}
    >
      {database.statusProblem}
    </Banner>
  );
}
