import { isOperationFinished } from '@berth/core';
import { useOperationLogs } from '../api/use-operation-logs.ts';
import './operations.css';

export const FETCHING_LOGS = 'Fetching logs...';
/** spec 3 §8 */
export const NO_DATA_FOUND = 'No data found';
export const LOGS_WAIT_MESSAGE = 'Logs will be available once the operation has finished.';

/** spec 2 §4: lines with ERROR are red, lines with WARN orange. */
export function logLineTone(line: string): 'error' | 'warn' | null {
  if (line.includes('ERROR')) return 'error';
  if (line.includes('WARN')) return 'warn';
  return null;
}

export function LogText({ text, label = 'Operation logs' }: { text: string; label?: string }) {
  const lines = text.replace(/\n$/, '').split('\n');
  return (
    <pre className="logs-viewer" role="log" aria-label={label}>
      {lines.map((line, index) => {
        const tone = logLineTone(line);
        // Lines have no identity beyond their position in an immutable text.
        const key = `${index}`;
        return (
          <span
            key={key}
            className={`log-line${tone ? ` log-line-${tone}` : ''}`}
            data-tone={tone ?? undefined}
          >
            {line}
          </span>
        );
      })}
    </pre>
  );
}

/**
 * spec 2 §4: logs are fetched once the operation has succeeded or failed. While it is queued or running a
 * wait message shows; then 'Fetching logs...', 'No data found', or the text.
 */
export function OperationLogs({ operationId, status }: { operationId: string; status: string }) {
  const finished = isOperationFinished(status);
  const logs = useOperationLogs(operationId, finished);
  if (!finished) return <p className="logs-note">{LOGS_WAIT_MESSAGE}</p>;
  if (logs.isPending) return <p className="logs-note">{FETCHING_LOGS}</p>;
  if (logs.isError) {
    return (
      <p className="field-error" role="alert">
        Error: {logs.error.message}
      </p>
    );
  }
  if (!logs.data.trim()) return <p className="logs-note">{NO_DATA_FOUND}</p>;
  return <LogText text={logs.data} />;
}
