import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exitOf, freePort, spawnServer, untilRunning } from './testing/server-process.ts';

// Issue 35: a stop printed nothing. The server says once that it is stopping and once that it stopped,
// on SIGTERM (a service manager) as on SIGINT (Ctrl-C).

const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-stop-lines-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a stopping server', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'prints one line as it starts stopping and one once stopped on %s, exit 0',
    async (signal) => {
      const server = await untilRunning(
        spawnServer({ BERTH_DATA_DIR: dir, PORT: String(await freePort()), HOST: '127.0.0.1' }),
      );
      const before = server.output();
      server.child.kill(signal);
      expect(await exitOf(server.child)).toBe(0);
      // From the stop on: the start's last lines (the outbox's) may reach the pipe after "Berth is running"
      // was seen, and so after `before`; they come before the stop's lines all the same.
      const output = server.output().slice(before.length);
      const stop = output.indexOf('Stopping Berth…');
      expect(stop, output).toBeGreaterThanOrEqual(0);
      expect(output.slice(stop).trim().split('\n')).toEqual(['Stopping Berth…', 'Berth stopped.']);
    },
    90_000,
  );
});
