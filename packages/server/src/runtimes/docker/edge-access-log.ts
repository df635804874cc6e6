import { open } from 'node:fs/promises';
import type { EndpointLogLine } from '../runtime.ts';

/** How much of the edge's access log's end is read for one call: the newest requests, never the whole file. */
const READ_BYTES = 4 * 1024 * 1024;

/** Caddy's logging for the edge's access log: JSON lines to a file it rolls itself. */
export function accessLogConfig(file: string) {
  return {
    writer: { output: 'file', filename: file, roll_size_mb: 20, roll_keep: 2 },
    encoder: { format: 'json' },
    level: 'INFO',
    include: ['http.log.access'],
  };
}

interface AccessEntry {
  ts?: number;
  status?: number;
  size?: number;
  duration?: number;
  request?: {
    remote_ip?: string;
    host?: string;
    method?: string;
    uri?: string;
    proto?: string;
    headers?: Record<string, string[] | undefined>;
  };
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '-');

/**
 * The requests the edge answered for these hostnames, oldest first, at most `tail` (the newest), after
 * `since` when given: read from the end of Caddy's JSON access log. A missing log (no request yet) has
 * none.
 */
export async function readEdgeAccessLog(
  file: string,
  hostnames: ReadonlySet<string>,
  tail: number,
  since?: Date,
): Promise<EndpointLogLine[]> {
  let content: string;
  try {
    const handle = await open(file, 'r');
    try {
      const { size } = await handle.stat();
      const start = Math.max(0, size - READ_BYTES);
      const buffer = Buffer.alloc(size - start);
      await handle.read(buffer, 0, buffer.length, start);
      content = buffer.toString('utf8');
      // A read that starts mid-file starts mid-line: that first piece is not a whole entry.
      if (start > 0) content = content.slice(content.indexOf('\n') + 1);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines: EndpointLogLine[] = [];
  for (const raw of content.split('\n')) {
    if (!raw.startsWith('{')) continue;
    let entry: AccessEntry;
    try {
      entry = JSON.parse(raw) as AccessEntry;
    } catch {
      continue;
    }
    const request = entry.request;
    if (typeof entry.ts !== 'number' || !request || typeof request.host !== 'string') continue;
    // The host as the client sent it may carry the listener's port.
    const hostname = request.host.replace(/:\d{1,5}$/, '').toLowerCase();
    if (!hostnames.has(hostname)) continue;
    const time = new Date(Math.round(entry.ts * 1000));
    if (since && time <= since) continue;
    const agent = request.headers?.['User-Agent']?.[0];
    const seconds = typeof entry.duration === 'number' ? entry.duration.toFixed(3) : '-';
    lines.push({
      time,
      hostname,
      line: `${text(request.remote_ip, 64)} ${hostname} "${text(request.method, 16)} ${text(request.uri, 2000)} ${text(request.proto, 16)}" ${entry.status ?? 0} ${entry.size ?? 0} ${seconds}s "${text(agent, 300)}"`,
    });
  }
  return lines.slice(-tail);
}
