import { Link } from 'react-router';
import { to } from '../../../lib/paths.ts';
import { useDatabase } from '../../../resources/databases/use-databases.ts';

/**
 * Issue 41: the database a restore (or a replica) made, by its handle once loaded. A database the caller
 * may not read (another environment) keeps its id.
 */
export function NewDatabaseLink({ databaseId }: { databaseId: string }) {
  const database = useDatabase(databaseId);
  return <Link to={to.database(databaseId)}>{database.data?.handle ?? `Database ${databaseId}`}</Link>;
}
