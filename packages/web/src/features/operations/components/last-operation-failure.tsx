import { Link } from 'react-router';
import { to } from '../../../lib/paths.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { NO_OPERATION_FILTERS } from '../api/operation-filters.ts';
import { useOperations } from '../api/use-operations.ts';
import { FailureReasonText, OperationFailureReason } from './operation-failure-reason.tsx';

/**
 * Issue 41: why a resource is in a failed state (a drain's "Provision Failed", a database's, an
 * endpoint's): its newest operation's reason and a link to it. Shown only for rows in a failed state, so
 * a list asks for the operations of those few rows only.
 */
export function LastOperationFailure({ operationsPath }: { operationsPath: string }) {
  const latest = useOperations(operationsPath, 1, NO_OPERATION_FILTERS);
  const operation = latest.data?.operations[0];
  if (operation?.status !== 'failed') return null;
  return <FailedOperationNote operation={operation} />;
}

/**
 * A failed operation under its resource in a list: the reason (from the list's answer when it carries
 * one, else read from the log, as the failed operation's banner does) and a link to the operation.
 */
export function FailedOperationNote({
  operation,
}: {
  operation: Pick<Operation, 'id' | 'type' | 'note' | 'failureReason'>;
}) {
  return (
    <span className="last-operation-failure">
      {operation.failureReason === undefined ? (
        <OperationFailureReason operationId={operation.id} note={operation.note} />
      ) : operation.failureReason ? (
        <FailureReasonText reason={operation.failureReason} />
      ) : null}
      <Link to={to.operation(operation.id)}>View the failed {operation.type} operation</Link>
    </span>
  );
}
