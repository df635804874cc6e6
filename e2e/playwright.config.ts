import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { systemChromium } from '../scripts/chromium.mjs';

// The suite drives Chromium against the real server serving the built console, started here
// through `npm start`'s script (it rebuilds the console when its sources changed) on a free
// loopback port with a fresh embedded database. `npm test` builds the console before this runs.

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

// The config is evaluated again in every worker process. The runner evaluates it first and the
// workers inherit its environment, so the port and data directory are chosen once, here.
if (!process.env.BERTH_E2E_PORT) {
  process.env.BERTH_E2E_PORT = execFileSync(process.execPath, [
    '-e',
    `const s = require('node:net').createServer().listen(0, '127.0.0.1', () => {
       process.stdout.write(String(s.address().port)); s.close();
     });`,
  ])
    .toString()
    .trim();
}
if (!process.env.BERTH_E2E_DATA_DIR) {
  // A fixed place under the ignored reports folder: fresh for each run, left behind for
  // inspection after a failure, never piling up.
  const dataDir = join(root, '.test-reports', 'e2e-data');
  if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  process.env.BERTH_E2E_DATA_DIR = dataDir;
}
// The server under test uses its embedded defaults (PGlite, mail outbox), whatever the shell says.
delete process.env.DATABASE_URL;
delete process.env.SMTP_URL;

const port = Number(process.env.BERTH_E2E_PORT);
const dataDir = process.env.BERTH_E2E_DATA_DIR;
const baseURL = `http://127.0.0.1:${port}`;
const DOCKER_SPECS = /docker-runtime\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: Number(process.env.BERTH_E2E_WORKERS ?? 2),
  // One embedded-database server answers every worker's consoles; each page load asks it for some fifteen
  // lists at once, so on a busy CI machine an answer can take seconds. The budgets are waits, not measures:
  // speed is measured by the benchmarks.
  timeout: 90_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['json', { outputFile: join(root, '.test-reports', 'e2e.json') }]],
  use: {
    baseURL,
    // Spinners and skeletons hold still (global.css): an endless animation redraws every frame, and with
    // software rendering on two cores those frames are CPU the suite needs.
    reducedMotion: 'reduce',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: DOCKER_SPECS,
      use: {
        ...devices['Desktop Chrome'],
        // The system Chromium from apt; Playwright never downloads browsers here.
        launchOptions: systemChromium,
      },
    },
    {
      // Specs that start containers run after all the others, alone: every container start changes
      // the host's interfaces, and Chromium aborts requests in flight in every browser on the machine
      // when they change (net::ERR_NETWORK_CHANGED). Run one alone with `--no-deps`.
      name: 'docker',
      testMatch: DOCKER_SPECS,
      dependencies: ['chromium'],
      use: { ...devices['Desktop Chrome'], launchOptions: systemChromium },
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    cwd: root,
    url: `${baseURL}/config.json`,
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: process.env.BERTH_E2E_SERVER_LOGS ? 'pipe' : 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      PUBLIC_URL: baseURL,
      BERTH_DATA_DIR: dataDir,
      // The tests sign many users up from this machine within a minute.
      BERTH_SIGNUP_LIMIT_PER_ADDRESS: '10000',
      // The specs drive every screen with more than a starter plan holds; billing.spec.ts runs a server
      // of its own on the default plan to prove the limits.
      BERTH_DEFAULT_PLAN: 'enterprise',
      // Support tickets go to this address's outbox (support.spec.ts reads it).
      BERTH_SUPPORT_EMAIL: 'support@berth.test',
    },
  },
});
