import type { ContainerLogLine, EndpointLogLine, LogsContainer, LogsEndpoint } from '../runtime.ts';
import { newestLines } from '../runtime.ts';
import { unit } from './sim-metrics.ts';

// Simulated container output: what a web process, a worker and a database print, one line per slot of
// a few seconds since the container started. Each line is a pure function of the container and the
// slot, so reloads agree and the log moves forward as time passes.

const PATHS = ['/', '/healthcheck', '/api/orders', '/api/orders/42', '/login', '/assets/app.js', '/api/cart'];
const AGENTS = ['Mozilla/5.0', 'curl/8.5.0', 'Berth-HealthCheck/1.0'];

const pick = <T>(items: readonly T[], value: number): T => items[Math.floor(value * items.length)] as T;

function webLine(seed: number, k: number): Pick<ContainerLogLine, 'stream' | 'line'> {
  const roll = unit(seed, k * 7 + 1);
  const path = pick(PATHS, unit(seed, k * 7 + 2));
  const ms = Math.round(2 + 180 * unit(seed, k * 7 + 3) ** 3);
  const address = `10.0.${Math.floor(unit(seed, k * 7 + 4) * 250)}.${Math.floor(unit(seed, k * 7 + 5) * 250)}`;
  if (roll > 0.985)
    return { stream: 'stderr', line: `ERROR: upstream timed out after 30000ms while handling GET ${path}` };
  const status = roll > 0.95 ? 500 : roll > 0.9 ? 404 : path === '/login' && roll > 0.5 ? 302 : 200;
  const bytes = status === 200 ? Math.round(200 + 40000 * unit(seed, k * 7 + 6)) : 0;
  const agent = pick(AGENTS, unit(seed, k * 7 + 7));
  return {
    stream: 'stdout',
    line: `${address} - - "GET ${path} HTTP/1.1" ${status} ${bytes} "-" "${agent}" ${ms}ms`,
  };
}

function workerLine(seed: number, k: number): Pick<ContainerLogLine, 'stream' | 'line'> {
  const roll = unit(seed, k * 3 + 1);
  const job = 1000 + k;
  if (roll > 0.97) return { stream: 'stderr', line: `WARN job ${job} retried: connection reset by peer` };
  return {
    stream: 'stdout',
    line: `INFO processed job ${job} (mail.deliver) in ${Math.round(20 + 400 * unit(seed, k * 3 + 2))}ms`,
  };
}

function databaseLine(seed: number, k: number): Pick<ContainerLogLine, 'stream' | 'line'> {
  const roll = unit(seed, k * 5 + 1);
  if (roll > 0.7)
    return {
      stream: 'stderr',
      line: `LOG:  checkpoint complete: wrote ${Math.round(5 + 300 * unit(seed, k * 5 + 2))} buffers (0.${Math.floor(10 * unit(seed, k * 5 + 3))}%)`,
    };
  return {
    stream: 'stderr',
    line: `LOG:  connection authorized: user=aptible database=db application_name=app-${Math.floor(unit(seed, k * 5 + 4) * 9)}`,
  };
}

export function simContainerLogs(
  containers: readonly LogsContainer[],
  tail: number,
  now = new Date(),
  since: Date | null = null,
): ContainerLogLine[] {
  const lines: ContainerLogLine[] = [];
  for (const container of containers) {
    const seed = (container.id * 2654435761) >>> 0;
    // A busy web process prints a line every 2 s, a worker every 6 s, a database every 20 s.
    const period =
      container.layer === 'database' ? 20_000 : /web|cmd/.test(container.processType) ? 2000 : 6000;
    const describe =
      container.layer === 'database'
        ? databaseLine
        : /web|cmd/.test(container.processType)
          ? webLine
          : workerLine;
    const started = container.startedAt.getTime();
    const newest = Math.floor(now.getTime() / period);
    for (let k = newest, count = 0; count < tail && k * period >= started; k--, count++) {
      // Within its slot the line lands at a time of its own, never in the future.
      const time = Math.min(now.getTime(), k * period + Math.floor(unit(seed, k) * period));
      if (time < started) continue;
      if (since && time <= since.getTime()) {
        // Older slots are older still: nothing more of this container is new.
        if (k * period + period <= since.getTime()) break;
        continue;
      }
      lines.push({ time: new Date(time), container: container.dockerName, ...describe(seed, k) });
    }
  }
  return newestLines(lines, tail);
}

/**
 * Simulated endpoint access lines, as a load balancer writes them: one request every 3 s per endpoint
 * since it was made, each a pure function of the endpoint and its slot.
 */
export function simEndpointLogs(
  endpoints: readonly LogsEndpoint[],
  tail: number,
  now = new Date(),
  since: Date | null = null,
): EndpointLogLine[] {
  const period = 3000;
  const lines: EndpointLogLine[] = [];
  for (const endpoint of endpoints) {
    const seed = ((endpoint.id + 7919) * 2654435761) >>> 0;
    const started = endpoint.createdAt.getTime();
    const from = Math.max(started, since?.getTime() ?? started);
    for (
      let k = Math.floor(now.getTime() / period), count = 0;
      count < tail && (k + 1) * period > from;
      k--, count++
    ) {
      const time = Math.min(now.getTime(), k * period + Math.floor(unit(seed, k) * period));
      if (time < started || (since && time <= since.getTime())) continue;
      const path = pick(PATHS, unit(seed, k * 5 + 1));
      const roll = unit(seed, k * 5 + 2);
      const status = roll > 0.97 ? 502 : roll > 0.92 ? 404 : 200;
      const client = `203.0.113.${Math.floor(unit(seed, k * 5 + 3) * 250) + 1}`;
      const ms = (0.002 + 0.25 * unit(seed, k * 5 + 4) ** 3).toFixed(3);
      const bytes = status === 200 ? Math.round(300 + 30000 * unit(seed, k * 5 + 5)) : 0;
      lines.push({
        time: new Date(time),
        hostname: endpoint.hostname,
        line: `${client} ${endpoint.hostname} "GET ${path} HTTP/1.1" ${status} ${bytes} ${ms}s "${pick(AGENTS, unit(seed, k))}"`,
      });
    }
  }
  return lines.sort((a, b) => a.time.getTime() - b.time.getTime()).slice(-tail);
}
