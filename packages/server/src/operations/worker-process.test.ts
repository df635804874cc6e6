import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apps, operations } from '../db/schema.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

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
    const owner = await t.signUp();
    const org = await t.createOrganization(owner);
    const environment = await t.createEnvironment(owner, org.id, 'killed');
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle: 'victim' })
      .returning();
    const response = await t.call('POST', `/api/apps/${app?.id}/operations`, {
      token: owner.token,
      body: { type: 'deploy', git_ref: 'main' },
    });
    const id = Number(response.json().id);

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
