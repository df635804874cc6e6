import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, repositoryRoot, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 19: every list complete at any size. An organization with 5,050 apps (bulk-inserted into the
// database of a server of its own, each with two 1 GB m5 containers): the newest app, past the first
// page of 5,000, is in /apps and its search, and in its environment's Apps tab with its real cost.

let server: OwnServer | undefined;
let seeded: { email: string; password: string; environmentId: number; newest: string };

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = join(process.env.BERTH_E2E_DATA_DIR ?? '/tmp/e2e-own', `many-apps-${process.pid}`);
  const seed = spawnSync(process.execPath, ['--import', 'tsx', 'src/testing/seed-many-apps.ts'], {
    cwd: join(repositoryRoot, 'packages/server'),
    env: { ...process.env, DATABASE_URL: '', BERTH_DATA_DIR: dataDir, SEED_APPS: '5050' },
    encoding: 'utf8',
    timeout: 180_000,
  });
  if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);
  seeded = JSON.parse(seed.stdout.trim().split('\n').at(-1) ?? '{}');
  server = await startOwnServer({ name: 'many-apps', env: { BERTH_DATA_DIR: dataDir } });
});

test.afterAll(async () => {
  await server?.stop();
});

test('the newest of 5,050 apps is in /apps, its search, and its environment with its cost', async ({
  page,
}) => {
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: seeded.email, password: seeded.password });
  await expect(page).toHaveURL(/\/environments$/);

  await page.goto(`${server?.origin}/apps`);
  const table = page.getByRole('table', { name: 'Apps' });
  await page.getByRole('searchbox').fill(seeded.newest);
  const row = table.getByRole('row').filter({ has: page.getByRole('link', { name: seeded.newest }) });
  await expect(row).toBeVisible({ timeout: 20_000 });
  // Two 1 GB m5 containers: 2 × 1 GB × $0.08 × 730 h.
  await expect(row.getByText('$116.80')).toBeVisible();

  await page.goto(`${server?.origin}/environments/${seeded.environmentId}/apps`);
  await page.getByRole('searchbox').fill(seeded.newest);
  const inEnvironment = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: seeded.newest }) });
  await expect(inEnvironment).toBeVisible({ timeout: 20_000 });
  await expect(inEnvironment.getByText('$116.80')).toBeVisible();
});
