import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, repositoryRoot, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 19: every list complete at any size. An organization with 5,050 apps (bulk-inserted into the
// database of a server of its own, each with two 1 GB m5 containers): the newest app, past the first
// page of 5,000, is in /apps and its search, and in its environment's Apps tab with its real cost; and
// the organization's Activity (45 operations) pages by the server's cursor.

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
  await expect(page).toHaveURL(HOME_URL);

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

test('Activity pages 45 operations by the next link, and goes back by number', async ({ page }) => {
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: seeded.email, password: seeded.password });
  await expect(page).toHaveURL(HOME_URL);

  await page.goto(`${server?.origin}/activity`);
  const table = page.getByRole('table', { name: 'Activity' });
  // Newest first, 40 to a page: the newest restart is on page 1, the five oldest on page 2.
  await expect(table.getByRole('cell', { name: 'restart 1', exact: true })).toBeVisible();
  const pager = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pager.getByText('Page 1 of 2')).toBeVisible();
  await pager.getByRole('button', { name: 'Next' }).click();
  // Issue 19: Next starts the page after the last row it showed (the server's cursor), on its index.
  await expect(page).toHaveURL(/[?&]page=2&after=\d+\.\d+/);
  await expect(table.getByRole('cell', { name: 'restart 45', exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: /^restart \d+$/ })).toHaveCount(5);
  await expect(pager.getByText('Page 2 of 2')).toBeVisible();
  await pager.getByRole('button', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/[?&]page=1$/);
  await expect(table.getByRole('cell', { name: 'restart 1', exact: true })).toBeVisible();
});
