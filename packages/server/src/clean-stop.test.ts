import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from './db/data-dir-lock.ts';

// Issue 19: SIGTERM during a burst of writes stops the server within 10 s, exit 0, with every write it
// acknowledged kept, and the next start opens the data directory at once.

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-stop-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function start(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      DATABASE_URL: '',
      BERTH_DATA_DIR: dir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      BERTH_SIGNUP_LIMIT_PER_ADDRESS: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  while (!output.includes('Berth is running')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`The server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return child;
}

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
    const code = await new Promise((resolve) => server.once('exit', resolve));
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
      await new Promise((resolve) => again.once('exit', resolve));
    }
  }, 120_000);
});
