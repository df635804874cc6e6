import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createAccountEnvironment, type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import {
  dockerEngineAnswers,
  E2E_BASE_IMAGE,
  edgeGet,
  ensureBaseImage,
  gotoSteadily,
  removeEnvironmentContainers,
} from '../fixtures/docker.ts';
import { freePort, type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38's guided deploy on real containers (the `docker` runtime): the git page gives the app's own
// remote and the push to the scan branch; the pushed code is scanned (its Dockerfile found), configured
// with a pasted .env file, deployed from the scan branch, and answers through the edge at the endpoint
// the Deploying page offers. A server of its own runs the docker runtime. Skipped without a Docker
// engine, except in CI.

const exec = promisify(execFile);
const run = randomBytes(3).toString('hex');
const environmentHandle = `e2e-guided-${run}`;
const network = `berth-e2e-${run}`;

let server: OwnServer | undefined;
let account: SeededAccount;
let edgePort = 0;
let work = '';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const engine = await dockerEngineAnswers();
  if (process.env.CI && !engine) throw new Error('No Docker engine answers, and CI needs one for this spec');
  test.skip(!engine, 'No Docker engine answers here (outside CI only)');
  await ensureBaseImage();
  edgePort = await freePort();
  server = await startOwnServer({
    name: 'guided-docker',
    env: {
      BERTH_RUNTIME: 'docker',
      BERTH_DOCKER_NETWORK: network,
      BERTH_EDGE_HTTP_PORT: String(edgePort),
      BERTH_EDGE_HTTPS_PORT: String(await freePort()),
      BERTH_HEALTH_CHECK_TIMEOUT_SECONDS: '20',
    },
  });
  account = await seedAccount(server.api, { organization: 'Guided Harbour' });
  await createAccountEnvironment(server.api, account, environmentHandle);
  work = mkdtempSync(join(tmpdir(), 'berth-e2e-guided-'));
});

test.afterAll(async () => {
  await server?.stop();
  if (server && edgePort) server.admin('stop-edge');
  if (work) rmSync(work, { recursive: true, force: true });
  if (edgePort) {
    await removeEnvironmentContainers(environmentHandle, network);
    // The image the deploy built, named after this run's environment (`berth/app-<id>/<environment>-<app>`).
    const { stdout } = await exec('docker', [
      'images',
      '-q',
      '--filter',
      `reference=berth/*/${environmentHandle}-*`,
    ]);
    const images = [...new Set(stdout.split('\n').filter(Boolean))];
    if (images.length) await exec('docker', ['rmi', '--force', ...images]);
  }
});

const git = (...args: string[]) =>
  exec('git', ['-c', 'user.name=E2E', '-c', 'user.email=e2e@example.com', ...args], {
    cwd: work,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });

test('the guided deploy pushes to the scan branch, scans, configures and deploys a running app', async ({
  page,
}) => {
  await gotoSteadily(page, `${server?.origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  // A member of an organization lands on Home (issue 38).
  await expect(page).toHaveURL(HOME_URL);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();

  await page.getByRole('link', { name: 'Deploy', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your Environment' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Name your App' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Handle' }).fill('hello');
  await page.getByRole('button', { name: 'Create App' }).click();

  // Step 2 on docker: the environment's real remote, no simulated notice.
  await expect(page.getByRole('heading', { level: 1, name: 'Push your code to Berth' })).toBeVisible({
    timeout: 30_000,
  });
  const remote = `${server?.origin}/git/${environmentHandle}/hello.git`;
  await expect(page.getByText(`git remote add berth ${remote}`, { exact: true })).toBeVisible();
  await expect(page.getByText('git push berth main:berth-scan', { exact: true })).toBeVisible();
  await expect(page.getByRole('note', { name: 'Simulated' })).toHaveCount(0);
  await expect(page.getByText('Waiting on your git push to continue…')).toBeVisible();

  // The push the page gives (a token for the password, as git would ask): stored, not deployed.
  await git('init', '--quiet', '-b', 'main');
  writeFileSync(
    join(work, 'Dockerfile'),
    [
      `FROM ${E2E_BASE_IMAGE}`,
      'ENV PATH=/bin',
      'RUN mkdir -p /www',
      'EXPOSE 8000',
      'CMD ["/bin/sh", "-c", "echo \\"$GREETING\\" > /www/index.html && exec httpd -f -p $PORT -h /www"]',
      '',
    ].join('\n'),
  );
  await git('add', 'Dockerfile');
  await git('commit', '--quiet', '-m', 'Says hello');
  const authenticated = new URL(remote);
  authenticated.username = 'git';
  authenticated.password = account.token.accessToken;
  await git('push', '--quiet', authenticated.toString(), 'main:berth-scan');

  await page.getByRole('button', { name: 'Scan Code' }).click();
  await expect(page).toHaveURL(/\/deploy\/configure\?git_ref=berth-scan$/, { timeout: 60_000 });
  await expect(page.getByText('Your code has a Dockerfile')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Code scan of berth-scan' })).toBeVisible();

  await page.getByRole('textbox', { name: 'Paste a .env file' }).fill('export GREETING="hello from berth"\n');
  await page.getByRole('button', { name: 'Add to Variables' }).click();
  await expect(page.getByRole('textbox', { name: 'Variables', exact: true })).toHaveValue(
    'GREETING=hello from berth',
  );
  await page.getByRole('button', { name: 'Save & Deploy' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Deployed your Code' })).toBeVisible({
    timeout: 180_000,
  });
  await expect(page.getByText('git push berth main', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Create Endpoint' }).click();
  const host = `hello-${environmentHandle}.localhost`;
  await expect(page.locator('.endpoint-address').getByRole('link')).toHaveText(`http://${host}:${edgePort}`, {
    timeout: 90_000,
  });
  // The running app answers through the edge with the variable the .env file set.
  await expect
    .poll(async () => (await edgeGet(edgePort, host).catch(() => null))?.body.trim(), { timeout: 30_000 })
    .toBe('hello from berth');
});
