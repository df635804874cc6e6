import { useOperationLogs } from '../api/use-operation-logs.ts';
import './operations.css';

/** The longest reason shown in a banner; the whole line stays in the log below. */
const MAX_REASON_CHARS = 300;

/**
 * The reason a failed operation gives: its first ERROR line (the first thing that went wrong; later ones
 * are usually the worker's summary of it), without the line's time stamp and level, else its note.
 * Plain string searches, no pattern: a log is as long as the operation made it.
 */
export function failureReason(logText: string, note = ''): string | null {
  for (const raw of logText.split('\n')) {
    const at = raw.indexOf(' ERROR ');
    if (at === -1) continue;
    const rest = raw.slice(at + ' ERROR '.length);
    // "2026-01-01 12:00:00 +0000 ERROR -- : message": the message follows "-- : ".
    const message = (rest.startsWith('-- : ') ? rest.slice('-- : '.length) : rest).trim();
    if (message) return clip(message);
  }
  return note.trim() ? clip(note.trim()) : null;
}

function clip(text: string): string {
  return text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS)}…` : text;
}

/** Issue 41: a failed operation's banner says why, from its log (read once; the log view shares it). */
export function OperationFailureReason({ operationId, note }: { operationId: string; note: string }) {
  const logs = useOperationLogs(operationId, 'failed');
  const reason = failureReason(logs.data ?? '', note);
  if (!reason) return null;
  return (
    <p className="failure-reason">
      <span className="failure-reason-label">Reason: </span>
      <code>{reason}</code>
    </p>
  );
}
