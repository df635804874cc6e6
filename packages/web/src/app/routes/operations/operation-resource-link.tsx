import { Link } from 'react-router';
import { useServiceOwner } from '../../../features/services/api/use-service.ts';
import { type Operation, operationResourcePath } from '../../../resources/operations/operation.hal.ts';

/**
 * The resource of an operation, linked to its console page where one exists. A service's page is under
 * its app, and a database's service links to the database, so the service's owner is looked up (and
 * cached) first; until then the text stands alone.
 * It joins two features (operations, services), so it lives with the routes and is handed to
 * ActivityTable: no feature imports another.
 */
export function OperationResourceLink({
  operation,
}: {
  operation: Pick<Operation, 'resourceType' | 'resourceId' | 'resourceHandle'>;
}) {
  const owner = useServiceOwner(
    operation.resourceType === 'service' && operation.resourceId ? operation.resourceId : null,
  );
  const path = operationResourcePath(operation, owner);
  const text = `${operation.resourceType} ${operation.resourceHandle}`.trim();
  if (path) return <Link to={path}>{text}</Link>;
  return <>{text || '-'}</>;
}
