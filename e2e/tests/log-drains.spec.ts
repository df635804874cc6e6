import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccountEnvironment, type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { createApp, deployApp, waitForOperation } from '../fixtures/operations.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 13 in the console: New Log Drain and New Metric Drain from the environment's Integrations tab,
// the spec's messages, each drain provisioned against a real HTTPS receiver on this machine, a deploy's
// lines and the containers' metrics arriving there, counted on the drains. The server is the spec's own: it trusts the receiver's certificate
// (BERTH_DRAIN_CA_FILE), lets drains reach it by name only (BERTH_DRAIN_ALLOW) and ships logs every second, metrics every two.

let server: OwnServer | undefined;
let receiver: Server | undefined;
let account: SeededAccount;
let environmentId = '';
const received: { message: string; source: string }[] = [];
/** InfluxDB 2 writes: the query and authorization each came with, and their line protocol. */
const influxWrites: { url: string; authorization: string; body: string }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'berth-e2e-drain-'));

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const key = join(dir, 'key.pem');
  const cert = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2'].concat([
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost',
    ]),
    { stdio: 'ignore' },
  );
  receiver = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (request.url?.startsWith('/api/v2/write')) {
        influxWrites.push({ url: request.url, authorization: String(request.headers.authorization), body });
        response.statusCode = 204;
        response.end();
        return;
      }
      received.push(...(JSON.parse(body) as { message: string; source: string }[]));
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver?.listen(0, resolve));
  writeFileSync(join(dir, 'ca.pem'), readFileSync(cert));
  server = await startOwnServer({
    name: 'log-drains',
    env: {
      BERTH_DRAIN_CA_FILE: join(dir, 'ca.pem'),
      BERTH_DRAIN_INTERVAL_SECONDS: '1',
      BERTH_METRIC_DRAIN_INTERVAL_SECONDS: '2',
      // The receiver is on this machine, a private destination: the guard stays on, its name allowed.
      BERTH_DRAIN_ALLOW: 'localhost',
    },
  });
  account = await seedAccount(server.api, { organization: 'Drain Harbour' });
  environmentId = (await createAccountEnvironment(server.api, account, 'drained')).id;
});

test.afterAll(async () => {
  await server?.stop();
  receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('create a log drain from the environment page, see it provisioned and a deploy arrive', async ({
  page,
}) => {
  const port = (receiver?.address() as AddressInfo | undefined)?.port ?? 0;
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);

  await page.goto(`${server?.origin}/environments/${environmentId}/integrations`);
  const table = page.getByRole('table', { name: `Log drains of environment ${environmentId}` });
  await expect(table.getByText('No resources found')).toBeVisible();
  await page.getByRole('link', { name: 'New Log Drain' }).click();
  await expect(page).toHaveURL(new RegExp(`/log-drains/create\\?environment_id=${environmentId}$`));

  // The spec's messages before anything is sent.
  await page.getByRole('textbox', { name: 'Handle' }).fill('to-receiver');
  await page.getByRole('combobox', { name: 'Type' }).selectOption('datadog');
  await page.getByRole('button', { name: 'Save Log Drain' }).click();
  await expect(page.getByText('Must provide a URL for log drain', { exact: true })).toBeVisible();
  const url = page.getByRole('textbox', { name: 'URL' });
  await url.fill(`http://localhost:${port}/in`);
  await page.getByRole('button', { name: 'Save Log Drain' }).click();
  await expect(page.getByText('Must begin with https://', { exact: true })).toBeVisible();
  await url.fill(`https://localhost:${port}/in?api-key=kept-secret`);
  await page.getByRole('button', { name: 'Save Log Drain' }).click();

  // Back on Integrations: the drain, then Provisioned once its destination answered.
  await expect(page).toHaveURL(new RegExp(`/environments/${environmentId}/integrations$`));
  const row = table.getByRole('row', { name: /to-receiver/ });
  await expect(row).toContainText('Datadog');
  await expect(row).toContainText('Provisioned', { timeout: 30_000 });
  await expect(row).toContainText(`https://localhost:${port}/••••`);
  await expect(row).not.toContainText('kept-secret');

  // A deploy's lines reach the receiver, and the drain counts them.
  const token = account.token.accessToken;
  const app = await createApp(server?.api as never, token, environmentId, 'shop');
  const deploy = await deployApp(server?.api as never, token, app.id, 'main');
  expect(await waitForOperation(server?.api as never, token, deploy.id, 60_000)).toBe('succeeded');
  await expect
    .poll(() => received.some((line) => /Starting app deploy operation/.test(line.message)), {
      timeout: 30_000,
    })
    .toBe(true);
  await expect(row).toContainText(/[1-9][\d,]* lines sent/, { timeout: 30_000 });

  // Restart, then Deprovision: the drain goes.
  await row.getByRole('button', { name: 'Restart to-receiver' }).click();
  await row.getByRole('button', { name: 'Deprovision to-receiver' }).click();
  await expect(table.getByText('No resources found')).toBeVisible({ timeout: 30_000 });
});

test('create a metric drain (InfluxDB 2) from the environment page and see points arrive', async ({
  page,
}) => {
  const port = (receiver?.address() as AddressInfo | undefined)?.port ?? 0;
  await page.goto(`${server?.origin}/login`);
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);
  await page.goto(`${server?.origin}/environments/${environmentId}/integrations`);
  await page.getByRole('link', { name: 'New Metric Drain' }).click();
  await expect(page).toHaveURL(new RegExp(`/metric-drains/create\\?environment_id=${environmentId}$`));
  await page.getByRole('textbox', { name: 'Handle' }).fill('to-influx');
  await page.getByRole('combobox', { name: 'Type' }).selectOption('influxdb2');
  await page.getByRole('textbox', { name: 'Hostname' }).fill('https://localhost');
  await page.getByRole('button', { name: 'Save Metric Drain' }).click();
  await expect(
    page.getByText('Do not include the protocol (e.g. http(s)://)', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText('Must provide an organization name', { exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Hostname' }).fill('localhost');
  await page.getByRole('textbox', { name: 'Port' }).fill(String(port));
  await page.getByRole('textbox', { name: 'Organization' }).fill('harbour');
  await page.getByLabel('API Token').fill('influx-e2e-token');
  await page.getByRole('textbox', { name: 'Bucket' }).fill('containers');
  await page.getByRole('button', { name: 'Save Metric Drain' }).click();

  await expect(page).toHaveURL(new RegExp(`/environments/${environmentId}/integrations$`));
  const table = page.getByRole('table', { name: `Metric drains of environment ${environmentId}` });
  const row = table.getByRole('row', { name: /to-influx/ });
  await expect(row).toContainText('InfluxDB 2');
  await expect(row).toContainText('Provisioned', { timeout: 30_000 });
  // The shipper sends every minute: the app deployed above gives it a container to measure.
  await expect.poll(() => influxWrites.length, { timeout: 90_000, intervals: [1000] }).toBeGreaterThan(0);
  expect(influxWrites[0]?.url).toBe('/api/v2/write?org=harbour&bucket=containers&precision=s');
  expect(influxWrites[0]?.authorization).toBe('Token influx-e2e-token');
  expect(influxWrites[0]?.body).toMatch(/^berth_container,environment=drained,resource=shop/m);
  await expect(row).toContainText(/[1-9][\d,]* points sent/, { timeout: 30_000 });
});
