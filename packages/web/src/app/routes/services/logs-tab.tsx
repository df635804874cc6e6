import { useId, useState } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useServiceLogs } from '../../../features/services/api/use-service-logs.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import type { Service } from '../../../resources/services/service.hal.ts';
import '../../../features/services/components/service-logs.css';

const TAILS = [100, 200, 500, 1000] as const;

/**
 * The service's container output (a Berth addition: /apps/{id}/services/{serviceId}/logs): the newest
 * lines of its running containers, oldest first, read again every few seconds while Follow is on.
 */
export function ServiceLogsTab({ service }: { service: Service }) {
  const denial = useActionDenial('service.logs.read', service.environmentId);
  const [tail, setTail] = useState<number>(200);
  const [follow, setFollow] = useState(true);
  const logs = useServiceLogs(service.id, tail, { follow, enabled: denial === null });
  const tailId = useId();

  if (denial) return <EmptyState title="Logs are not available to you" description={denial} />;
  return (
    <div className="section-stack">
      <div className="service-logs-toolbar">
        <div className="field">
          <label className="field-label" htmlFor={tailId}>
            Lines
          </label>
          <select
            id={tailId}
            className="select"
            value={tail}
            onChange={(event) => setTail(Number(event.target.value))}
          >
            {TAILS.map((count) => (
              <option key={count} value={count}>
                Last {count}
              </option>
            ))}
          </select>
        </div>
        <label className="service-logs-follow">
          <input type="checkbox" checked={follow} onChange={(event) => setFollow(event.target.checked)} />
          Follow (every 5 seconds)
        </label>
      </div>
      <QueryState query={logs} loadingLabel="Loading logs">
        {(lines) =>
          lines.length === 0 ? (
            <EmptyState
              title="No output yet"
              description="The service's running containers have not printed anything. Deploy or restart it, or wait for its first request."
            />
          ) : (
            <ol className="service-logs" aria-label="Log lines">
              {lines.map((entry, index) => (
                // Lines can repeat word for word: their place is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: a log is append-only and read whole.
                <li key={index} className={entry.stream === 'stderr' ? 'service-log stderr' : 'service-log'}>
                  <time dateTime={entry.time}>{new Date(entry.time).toLocaleTimeString()}</time>
                  <span className="service-log-container">{entry.container}</span>
                  <span className="service-log-line">{entry.line}</span>
                </li>
              ))}
            </ol>
          )
        }
      </QueryState>
    </div>
  );
}
