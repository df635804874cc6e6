/**
 * The benchmarks' server process (not a test): the bundled server as `npm start` runs it, on a port of
 * its own, with its resident memory read from /proc. Shared by `npm run bench` and `npm run bench:web`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnvironment } from '../../../scripts/server-process.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// The bundled server, as `npm start` runs it (`npm run build` makes it, with the console).
const serverMain = path.join(root, 'packages/server/dist/main.mjs');

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value at percentile p of ascending values (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const line = status.split('\n').find((entry) => entry.startsWith(`${field}:`));
  return line ? Number.parseInt(line.slice(field.length + 1).trim(), 10) : Number.NaN;
}

/** The process's resident memory now, in MB. */
export function residentMb(pid: number): number {
  return statusKb(pid, 'VmRSS') / 1024;
}

/** The most resident memory the process has held since it started (the kernel's high-water mark), in MB. */
export function peakResidentMb(pid: number): number {
  return statusKb(pid, 'VmHWM') / 1024;
}

export interface Served {
  url: string;
  process: ChildProcess;
  pid: number;
  startMs: number;
}

/** The server as `npm start` runs it (no install or build step): resolves once /config.json answers. */
export async function startServer(env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  // BENCH_SERVER_NODE_ARGS: Node flags for the server process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile it (Node refuses those in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, serverMain], {
    cwd: root,
    env: serverEnvironment({
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      ...env,
    }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/config.json`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, process: child, pid: child.pid as number, startMs: performance.now() - started };
}

export async function stopServer(served: Served): Promise<void> {
  if (served.process.exitCode !== null) return;
  const exited = new Promise((resolve) => served.process.once('exit', resolve));
  served.process.kill('SIGTERM');
  await exited;
}
