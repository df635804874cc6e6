import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, operations } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { createSecretBox } from '../security/secret-box.ts';
import { ownedApps, startAppOperation } from '../testing/owned-apps.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { createWorker } from './worker.ts';

const testSecrets = createSecretBox(new Uint8Array(32), 'tests');

// A real `npm run worker` process against PostgreSQL, killed with SIGKILL mid-operation. PGlite
// belongs to one process, so this runs in the PostgreSQL pass of the suite only.
const onPostgres = process.env.BERTH_TEST_DB === 'postgres';
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

async function waitFor<T>(read: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(onPostgres)('a worker process killed mid-operation', () => {
  it('leaves the operation to be taken over after its lease expires, and it succeeds once', async () => {
    const id = await queuedDeploy('victim', 'killed');

    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        DATABASE_URL: t.databaseUrl,
        BERTH_SIM_STEP_MS: '2000',
        BERTH_WORKER_LEASE_MS: '1500',
      },
      stdio: 'ignore',
    });
    try {
      const claimedBy = await waitFor(async () => {
        const [op] = await t.db.select().from(operations).where(eq(operations.id, id));
        return op?.status === 'running' ? op.leaseOwner : undefined;
      }, 20_000);
      expect(claimedBy).toMatch(/^worker-/);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.once('exit', resolve));
    const [stuck] = await t.db.select().from(operations).where(eq(operations.id, id));
    expect(stuck?.status).toBe('running');

    await new Promise((resolve) => setTimeout(resolve, 1600));
    await t.worker.drain();
    const [op] = await t.db.select().from(operations).where(eq(operations.id, id));
    expect(op).toMatchObject({ status: 'succeeded', attempts: 2 });
  }, 60_000);
});

/** A deploy queued on a fresh app of a fresh organization (its environment named as the app unless given). */
async function queuedDeploy(handle: string, environment = handle) {
  const {
    owner,
    apps: [app],
  } = await ownedApps(t, { environment, apps: [handle] });
  const response = await startAppOperation(t, owner, app?.id ?? 0, { type: 'deploy', git_ref: 'main' });
  return Number(response.json().id);
}

function workerProcess(env: Record<string, string>, preload: string[] = []): ChildProcess {
  return spawn(
    process.execPath,
    ['--import', 'tsx', ...preload.flatMap((p) => ['--import', p]), 'src/worker.ts'],
    {
      cwd: serverRoot,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, ...env },
      stdio: 'ignore',
    },
  );
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null) return;
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}

const operationRow = async (id: number) =>
  (await t.db.select().from(operations).where(eq(operations.id, id)))[0];
const linesOf = (id: number) => t.db.select().from(operationLogs).where(eq(operationLogs.operationId, id));

describe.runIf(onPostgres)('a worker whose clock runs 10 minutes ahead', () => {
  it('never takes over an operation a healthy worker is running', async () => {
    const id = await queuedDeploy('ahead');
    const healthy = createWorker({
      db: t.db,
      secrets: testSecrets,
      runtimes: { sim: createSimRuntime({ stepMs: 700 }) },
      workerId: 'healthy',
      leaseMs: 3000,
    });
    const running = healthy.runOnce();
    await waitFor(async () => ((await operationRow(id))?.status === 'running' ? true : undefined), 10_000);
    // The skewed worker polls every half second, recovering "expired" leases each time.
    const skewed = workerProcess(
      { BERTH_TEST_CLOCK_OFFSET_MS: String(10 * 60_000), BERTH_WORKER_LEASE_MS: '3000' },
      ['./src/testing/shifted-clock.ts'],
    );
    try {
      await running;
    } finally {
      await stopProcess(skewed);
    }
    expect(await operationRow(id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    const lines = await linesOf(id);
    expect(lines.some((l) => l.line.includes('stopped responding'))).toBe(false);
    expect(lines.filter((l) => l.line.includes('Starting app deploy operation'))).toHaveLength(1);
  }, 60_000);
});

describe.runIf(onPostgres)('a worker paused past its lease', () => {
  it('resumed after another worker finished the operation, changes nothing and writes no line', async () => {
    const id = await queuedDeploy('paused');
    const paused = workerProcess({ BERTH_SIM_STEP_MS: '1500', BERTH_WORKER_LEASE_MS: '1500' });
    try {
      await waitFor(async () => {
        const op = await operationRow(id);
        return op?.status === 'running' && op.leaseOwner?.startsWith('worker-') ? true : undefined;
      }, 20_000);
      await waitFor(async () => ((await linesOf(id)).length > 0 ? true : undefined), 10_000);
      paused.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 1700));
      await t.worker.drain();
      const finished = await operationRow(id);
      expect(finished).toMatchObject({ status: 'succeeded', attempts: 2 });
      const linesBefore = await linesOf(id);

      paused.kill('SIGCONT');
      // Long enough for its lease renewal, its pending runtime step and its next log write to come due.
      await new Promise((resolve) => setTimeout(resolve, 4000));
      expect(await operationRow(id)).toMatchObject({
        status: 'succeeded',
        attempts: 2,
        updatedAt: finished?.updatedAt,
      });
      expect(await linesOf(id)).toEqual(linesBefore);
    } finally {
      await stopProcess(paused);
    }
  }, 60_000);
});

describe.runIf(onPostgres)("a worker process's output", () => {
  it('says when it runs, each operation it starts and ends, and when it stops', async () => {
    const id = await queuedDeploy('talks');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: serverRoot,
      env: { ...process.env, DATABASE_URL: t.databaseUrl, BERTH_SIM_STEP_MS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    try {
      await waitFor(
        async () => ((await operationRow(id))?.status === 'succeeded' ? true : undefined),
        30_000,
      );
      // Its line is printed after the operation's end is written.
      await waitFor(
        async () =>
          output.includes(`Operation ${id} `) && output.includes('succeeded in') ? true : undefined,
        5000,
      );
      child.kill('SIGTERM');
      expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(0);
    } finally {
      await stopProcess(child);
    }
    const op = await operationRow(id);
    const lines = output.trim().split('\n');
    expect(lines[0]).toMatch(/^berth worker: 1 worker\(s\) running \(worker-\d+-[0-9a-f]+\)$/);
    const ours = lines.filter((line) => line.startsWith(`Operation ${id} `));
    expect(ours).toEqual([
      `Operation ${id} (deploy of app talks #${op?.resourceId}) started`,
      expect.stringMatching(
        new RegExp(
          `^Operation ${id} \\(deploy of app talks #${op?.resourceId}\\) succeeded in \\d+\\.\\d s$`,
        ),
      ),
    ]);
    expect(lines.slice(-2)).toEqual(['Stopping the berth worker…', 'berth worker stopped.']);
  }, 60_000);
});
