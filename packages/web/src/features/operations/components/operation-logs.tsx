import { isOperationFinished } from '@berth/core';
import { useEffect, useRef } from 'react';
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
 * spec 2 §4 and issue 20: a queued operation has no log yet (the wait message); a running one shows its
 * lines as they are written, read again every 2 s; a finished one 'Fetching logs...', 'No data found',
 * or the text.
 */
export function OperationLogs({ operationId, status }: { operationId: string; status: string }) {
  const finished = isOperationFinished(status);
  const logs = useOperationLogs(operationId, status);
  if (!finished && status !== 'running') return <p className="logs-note">{LOGS_WAIT_MESSAGE}</p>;
  if (logs.isPending) return <p className="logs-note">{FETCHING_LOGS}</p>;
  if (logs.isError && !logs.data) {
    return (
      <p className="field-error" role="alert">
        Error: {logs.error.message}
      </p>
    );
  }
  const text = logs.data ?? '';
  if (!finished) {
    return (
      <>
        <p className="logs-note" aria-live="polite">
          {LIVE_LOGS_NOTE}
        </p>
        {text.trim() ? <FollowingLogText text={text} /> : null}
      </>
    );
  }
  if (!text.trim()) return <p className="logs-note">{NO_DATA_FOUND}</p>;
  return <LogText text={text} />;
}

export const LIVE_LOGS_NOTE = 'Running: new lines appear as they are written.';

/** The log of a running operation, kept scrolled to its end while the reader is there. */
function FollowingLogText({ text }: { text: string }) {
  const end = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      const gap = document.documentElement.scrollHeight - window.scrollY - window.innerHeight;
      following.current = gap < 80;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new text is a reason to scroll.
  useEffect(() => {
    if (following.current) end.current?.scrollIntoView?.({ block: 'end' });
  }, [text]);
  return (
    <>
      <LogText text={text} />
      <div ref={end} />
    </>
  );
}
