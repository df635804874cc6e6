import { failureReason } from '@berth/core';
import { useOperationLogs } from '../api/use-operation-logs.ts';
import './operations.css';

/** Issue 41: a failed operation's banner says why, from its log (read once; the log view shares it). */
export function OperationFailureReason({ operationId, note }: { operationId: string; note: string }) {
  const logs = useOperationLogs(operationId, 'failed');
  const reason = failureReason(logs.data ?? '', note);
  return reason ? <FailureReasonText reason={reason} /> : null;
}

/** A failure's reason as the banner and the lists show it. */
export function FailureReasonText({ reason }: { reason: string }) {
  return (
    <p className="failure-reason">
      <span className="failure-reason-label">Reason: </span>
      <code>{reason}</code>
    </p>
  );
}
