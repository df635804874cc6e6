import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './db/data-dir-lock.ts';
import { exitOf, freePort, spawnServer, untilRunning } from './testing/server-process.ts';

// Issue 19: SIGTERM during a burst of writes stops the server within 10 s, exit 0, with every write it
// acknowledged kept, and the next start opens the data directory at once.

const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-stop-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const start = async (port: number) =>
  (
    await untilRunning(
      spawnServer({ BERTH_DATA_DIR: dir, PORT: String(port), BERTH_SIGNUP_LIMIT_PER_ADDRESS: '100000' }),
    )
  ).child;

const signUp = (port: number, email: string) =>
  fetch(`http://127.0.0.1:${port}/auth/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/hal+json' },
    body: JSON.stringify({
      name: 'Burst',
      email,
      password: 'Correct-Horse9',
      challengeToken: '',
      origin: 'app',
    }),
  }).then(
    (response) => response.status,
    () => 0,
  );

describe('a clean stop', () => {
  it('keeps every acknowledged write of a burst cut by SIGTERM, exits 0 in time, and starts again at once', async () => {
    const port = await freePort();
    const server = await start(port);
    const acknowledged: string[] = [];
    const burst = Array.from({ length: 60 }, async (_, index) => {
      const email = `burst-${index}@example.com`;
      await new Promise((resolve) => setTimeout(resolve, index * 40));
      if ((await signUp(port, email)) === 201) acknowledged.push(email);
    });
    // Cut it once some writes are acknowledged and others are still on their way (sign-ups hash a
    // password: on a busy machine the first answers take a while).
    const deadline = Date.now() + 30_000;
    while (acknowledged.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const stopping = Date.now();
    server.kill('SIGTERM');
    const code = await exitOf(server);
    await Promise.all(burst);
    expect(code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(10_000);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    expect(acknowledged.length).toBeGreaterThan(0);

    const again = await start(port);
    try {
      for (const email of acknowledged) expect(await signUp(port, email), email).toBe(422);
    } finally {
      again.kill('SIGTERM');
      await exitOf(again);
    }
  }, 120_000);
});
