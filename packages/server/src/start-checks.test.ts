import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { serverRoot } from './server-root.ts';
import { checkMachine } from './start-checks.ts';
import { bundleServer, exitOf, freePort, spawnServer } from './testing/server-process.ts';

// Issue 35: every variable of the README's configuration table, set wrong, stops the start at once with
// one line naming it and a non-zero exit; no hang (BERTH_DATA_DIR=/proc/x), no trace, no wait on the
// resolver (HOST=999.1.1.1 took 53 s), and nothing taken silently.

const scratch = fs.mkdtempSync(path.join(tmpdir(), 'berth-start-checks-'));
// Some sixty starts: bundled, each takes a third of the time it takes through tsx.
let bundle: Awaited<ReturnType<typeof bundleServer>>;
beforeAll(async () => {
  bundle = await bundleServer();
});
afterAll(() => {
  bundle?.remove();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** The variables of the README's configuration table (not the tests' table after it), as documented. */
function documentedVariables(): string[] {
  const readme = fs.readFileSync(path.resolve(serverRoot, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Configuration\n'));
  const lines = section.split('\n');
  const first = lines.findIndex((line) => line.startsWith('| variable'));
  const rows: string[] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    const name = /^\| `([A-Z0-9_]+)`/.exec(line)?.[1];
    if (!name) throw new Error(`A row of the README's configuration table names no variable: ${line}`);
    rows.push(name);
  }
  return rows;
}

/** A wrong value for each variable, with what else it needs set to be read at all. */
const WRONG: Record<string, Record<string, string>> = {
  PORT: { PORT: 'abc' },
  HOST: { HOST: '999.1.1.1' },
  PUBLIC_URL: { PUBLIC_URL: 'berth.example.com' },
  BERTH_DATA_DIR: { BERTH_DATA_DIR: '/proc/x' },
  DATABASE_URL: { DATABASE_URL: 'mysql://root:hunter2@db/berth' },
  SMTP_URL: { SMTP_URL: 'not-a-url' },
  MAIL_FROM: { MAIL_FROM: 'not an email' },
  BERTH_JWT_SECRET: { BERTH_JWT_SECRET: 'x' },
  BERTH_CORS_ORIGINS: { BERTH_CORS_ORIGINS: 'notaurl' },
  BERTH_TRUST_PROXY: { BERTH_TRUST_PROXY: 'everyone' },
  BERTH_MAILBOX: { BERTH_MAILBOX: 'maybe' },
  BERTH_LOGIN_LIMIT_PER_ACCOUNT: { BERTH_LOGIN_LIMIT_PER_ACCOUNT: '0' },
  BERTH_LOGIN_LIMIT_PER_ADDRESS: { BERTH_LOGIN_LIMIT_PER_ADDRESS: '0' },
  BERTH_SIGNUP_LIMIT_PER_ADDRESS: { BERTH_SIGNUP_LIMIT_PER_ADDRESS: 'many' },
  BERTH_VERIFICATION_LIMIT_PER_CODE: { BERTH_VERIFICATION_LIMIT_PER_CODE: '0' },
  BERTH_VERIFICATION_LIMIT_PER_ADDRESS: { BERTH_VERIFICATION_LIMIT_PER_ADDRESS: '0' },
  BERTH_PASSWORD_RESET_LIMIT_PER_EMAIL: { BERTH_PASSWORD_RESET_LIMIT_PER_EMAIL: '0' },
  BERTH_PASSWORD_RESET_LIMIT_PER_ADDRESS: { BERTH_PASSWORD_RESET_LIMIT_PER_ADDRESS: '0' },
  BERTH_WORKER: { BERTH_WORKER: 'sometimes' },
  BERTH_WORKER_CONCURRENCY: { BERTH_WORKER_CONCURRENCY: '0' },
  BERTH_WORKER_LEASE_MS: { BERTH_WORKER_LEASE_MS: '0' },
  BERTH_BACKUP_CHECK_SECONDS: { BERTH_BACKUP_CHECK_SECONDS: '0' },
  BERTH_QUEUED_OPERATIONS_PER_ORGANIZATION: { BERTH_QUEUED_OPERATIONS_PER_ORGANIZATION: '0' },
  BERTH_OPERATIONS_PER_USER_PER_MINUTE: { BERTH_OPERATIONS_PER_USER_PER_MINUTE: '0' },
  BERTH_SIM_STEP_MS: { BERTH_SIM_STEP_MS: '-1' },
  BERTH_RUNTIME: { BERTH_RUNTIME: 'kubernetes' },
  DOCKER_HOST: { BERTH_RUNTIME: 'docker', DOCKER_HOST: 'ftp://x' },
  BERTH_DOCKER_NETWORK: { BERTH_DOCKER_NETWORK: 'two words' },
  BERTH_SWARM_HOST: {
    BERTH_RUNTIME: 'swarm',
    BERTH_SWARM_HOST: 'ftp://x',
    BERTH_REGISTRY: 'registry.test:5000',
  },
  BERTH_SWARM_TLS_DIR: {
    BERTH_RUNTIME: 'swarm',
    BERTH_SWARM_HOST: 'tcp://manager.test:2376',
    BERTH_SWARM_TLS_DIR: '/nonexistent-tls',
    BERTH_REGISTRY: 'registry.test:5000',
  },
  BERTH_REGISTRY: {
    BERTH_RUNTIME: 'swarm',
    BERTH_SWARM_HOST: 'unix:///x.sock',
    BERTH_REGISTRY: 'not a registry',
  },
  BERTH_HEALTH_CHECK_TIMEOUT_SECONDS: { BERTH_HEALTH_CHECK_TIMEOUT_SECONDS: '0' },
  BERTH_DOCKER_STATS_SECONDS: { BERTH_DOCKER_STATS_SECONDS: '0' },
  BERTH_GIT_MAX_PUSH_MB: { BERTH_GIT_MAX_PUSH_MB: '0' },
  BERTH_DATABASE_IMAGES: { BERTH_DATABASE_IMAGES: 'postgres' },
  BERTH_APPS_DOMAIN: { BERTH_APPS_DOMAIN: 'not a domain' },
  BERTH_EDGE_HTTP_PORT: { BERTH_EDGE_HTTP_PORT: '70000' },
  BERTH_EDGE_HTTPS_PORT: { BERTH_EDGE_HTTPS_PORT: 'https' },
  BERTH_ACME_EMAIL: { BERTH_ACME_EMAIL: 'not-an-email' },
  BERTH_CADDY_PATH: { BERTH_RUNTIME: 'docker', BERTH_CADDY_PATH: '/nope' },
  BERTH_AUTOSCALING: { BERTH_AUTOSCALING: 'diagonal' },
  BERTH_AUTOSCALE_INTERVAL_SECONDS: { BERTH_AUTOSCALE_INTERVAL_SECONDS: '0' },
  BERTH_RECOMMENDATION_CHECK_SECONDS: { BERTH_RECOMMENDATION_CHECK_SECONDS: '0' },
  BERTH_RECOMMENDATION_MIN_OBSERVED_MINUTES: { BERTH_RECOMMENDATION_MIN_OBSERVED_MINUTES: '-1' },
  BERTH_USAGE_METER_SECONDS: { BERTH_USAGE_METER_SECONDS: '0' },
  BERTH_DEFAULT_PLAN: { BERTH_DEFAULT_PLAN: 'platinum' },
  BERTH_PAYMENTS: { BERTH_PAYMENTS: 'paypal' },
  BERTH_TRIAL_DAYS: { BERTH_TRIAL_DAYS: '-1' },
  STRIPE_SECRET_KEY: { BERTH_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'pk_test_notsecret' },
  STRIPE_PUBLISHABLE_KEY: {
    BERTH_PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_berth',
    STRIPE_PUBLISHABLE_KEY: 'sk_test_berth',
  },
  STRIPE_WEBHOOK_SECRET: {
    BERTH_PAYMENTS: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_berth',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_berth',
  },
  BERTH_STRIPE_API_URL: { BERTH_STRIPE_API_URL: 'api.stripe.com' },
  BERTH_DRAIN_INTERVAL_SECONDS: { BERTH_DRAIN_INTERVAL_SECONDS: '0' },
  BERTH_METRIC_DRAIN_INTERVAL_SECONDS: { BERTH_METRIC_DRAIN_INTERVAL_SECONDS: '0' },
  BERTH_DRAIN_ALLOW: { BERTH_DRAIN_ALLOW: 'logs.internal:514' },
  BERTH_DRAIN_ALLOW_PRIVATE: { BERTH_DRAIN_ALLOW_PRIVATE: 'maybe' },
  BERTH_DRAIN_CA_FILE: { BERTH_DRAIN_CA_FILE: '/nope/ca.pem' },
  BERTH_SSO_METADATA_ALLOW: { BERTH_SSO_METADATA_ALLOW: 'idp.internal:443' },
  BERTH_SSO_METADATA_CA_FILE: { BERTH_SSO_METADATA_CA_FILE: '/nope/ca.pem' },
  BERTH_CHECK_RESPONSES: { BERTH_CHECK_RESPONSES: 'sometimes' },
  BERTH_HOME: { BERTH_HOME: 'beta' },
  BERTH_SUPPORT_EMAIL: { BERTH_SUPPORT_EMAIL: 'support@example.com, the superusers' },
  BERTH_ACTIVITY_REPORT_CHECK_SECONDS: { BERTH_ACTIVITY_REPORT_CHECK_SECONDS: '0' },
  BERTH_DOCS_URL: { BERTH_DOCS_URL: 'notaurl' },
  BERTH_STATUS_PAGE_URL: { BERTH_STATUS_PAGE_URL: 'notaurl' },
  LOG_LEVEL: { LOG_LEVEL: 'loud' },
  // Node reads it before Berth runs, and refuses a wrong one itself in one line naming it.
  NODE_OPTIONS: { NODE_OPTIONS: '--no-such-option' },
};

/** Variables no value of which is wrong to Berth, and why. */
const NOTHING_WRONG: Record<string, string> = {
  MALLOC_MMAP_THRESHOLD_: "glibc's own: Berth never reads it, and glibc ignores a value it cannot use",
};

/**
 * A start a variable stops is over in a second or two (several at once on a busy machine take longer);
 * a hang, or the resolver's wait (53 s), is not.
 */
const AT_ONCE_MS = 20_000;

/** Starts the server with these variables; its exit code, output and how long it took (killed after `withinMs`). */
async function start(env: Record<string, string>, withinMs = AT_ONCE_MS) {
  const dataDir = fs.mkdtempSync(path.join(scratch, 'data-'));
  const started = Date.now();
  const server = spawnServer(
    { BERTH_DATA_DIR: dataDir, PORT: String(await freePort()), ...env },
    { bundle: bundle.entry },
  );
  const killer = setTimeout(() => server.child.kill('SIGKILL'), withinMs);
  const code = await exitOf(server.child);
  clearTimeout(killer);
  return { code, output: server.output().trim(), ms: Date.now() - started };
}

describe("every variable of the README's configuration table", () => {
  const variables = documentedVariables();

  it('is read from the table, and each has a wrong value here or a reason why none is wrong', () => {
    expect(variables.length).toBeGreaterThan(40);
    const missing = variables.filter((name) => !WRONG[name] && !NOTHING_WRONG[name]);
    expect(missing, 'add a wrong value for each new variable to WRONG').toEqual([]);
    // Nothing here that the README no longer documents.
    const stale = [...Object.keys(WRONG), ...Object.keys(NOTHING_WRONG)].filter(
      (name) => !variables.includes(name),
    );
    expect(stale).toEqual([]);
  });

  it.concurrent.each(variables.filter((name) => WRONG[name]))(
    'stops the start at once with one line naming %s, exit status not 0',
    async (name) => {
      const { code, output, ms } = await start(WRONG[name] ?? {});
      expect(code, output).not.toBe(0);
      expect(code, output).not.toBeNull();
      expect(output.split('\n'), output).toHaveLength(1);
      expect(output).toContain(name);
      expect(output).not.toMatch(/\n\s+at /);
      expect(ms).toBeLessThan(AT_ONCE_MS);
    },
    AT_ONCE_MS + 30_000,
  );
});

describe('the start checks on the machine', () => {
  it.concurrent.each([
    [
      'a data directory that is a file',
      () => {
        const file = path.join(scratch, 'a-file');
        fs.writeFileSync(file, '');
        return { BERTH_DATA_DIR: file };
      },
      `The data directory ${path.join(scratch, 'a-file')} is a file, not a directory. Set BERTH_DATA_DIR to a directory (it is made when missing).`,
    ],
    [
      'a data directory on a file system that takes no directories',
      () => ({ BERTH_DATA_DIR: '/proc/x' }),
      'Berth cannot make its data directory /proc/x: the file system there takes no new directories. Set BERTH_DATA_DIR to a directory on a disk.',
    ],
    [
      'no Docker engine at DOCKER_HOST',
      () => ({ BERTH_RUNTIME: 'docker', DOCKER_HOST: `unix://${path.join(scratch, 'no-docker.sock')}` }),
      `Berth cannot start: DOCKER_HOST: no Docker engine answers at unix://${path.join(scratch, 'no-docker.sock')} (DOCKER_HOST): ENOENT. BERTH_RUNTIME=docker needs one: start dockerd, or set DOCKER_HOST to the engine's address`,
    ],
    [
      'a BERTH_CADDY_PATH that is no program',
      () => ({ BERTH_RUNTIME: 'docker', BERTH_CADDY_PATH: scratch }),
      `Berth cannot start: BERTH_CADDY_PATH "${scratch}" is no executable file; install Caddy (Debian: apt-get install caddy) or set BERTH_CADDY_PATH to its binary`,
    ],
    [
      'a HOST name that does not resolve',
      () => ({ HOST: 'berth.invalid' }),
      /^Berth cannot start: HOST berth\.invalid does not resolve \((ENOTFOUND|EAI_AGAIN|no answer within 5 s)\); set HOST to an address of this machine, such as 0\.0\.0\.0 or 127\.0\.0\.1$/,
    ],
  ])(
    'stops on %s with one line, exit 1',
    async (_, env, line) => {
      const { code, output, ms } = await start(env());
      expect(code, output).toBe(1);
      if (typeof line === 'string') expect(output).toBe(line);
      else expect(output).toMatch(line);
      expect(ms).toBeLessThan(AT_ONCE_MS);
    },
    AT_ONCE_MS + 30_000,
  );

  it('stops on a HOST that is no address of this machine, and on a port in use, with one line each', async () => {
    // TEST-NET-1: never an address of this machine.
    // These fail only at the listen, after the database opened: a full start's time.
    const elsewhere = await start({ HOST: '192.0.2.1', PORT: '4999' }, 60_000);
    expect(elsewhere.code, elsewhere.output).toBe(1);
    expect(elsewhere.output).toBe(
      'Berth cannot listen on 192.0.2.1:4999: HOST 192.0.2.1 is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.',
    );

    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const busy = await start({ HOST: '127.0.0.1', PORT: String(port) }, 60_000);
      expect(busy.code, busy.output).toBe(1);
      expect(busy.output).toBe(
        `Berth cannot listen on 127.0.0.1:${port}: port ${port} is in use by another program. Set PORT to a free port.`,
      );
    } finally {
      taken.close();
    }
  }, 150_000);

  it('stops a worker process whose Docker engine does not answer with one line; it runs no edge to check', async () => {
    const socket = path.join(scratch, 'no-docker.sock');
    const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        // Never reached: the engine is asked first.
        DATABASE_URL: 'postgres://berth@127.0.0.1:1/berth',
        BERTH_RUNTIME: 'docker',
        BERTH_CADDY_PATH: '/nope',
        DOCKER_HOST: `unix://${socket}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    worker.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    expect(await exitOf(worker)).toBe(1);
    expect(output.trim()).toBe(
      `Berth cannot start: DOCKER_HOST: no Docker engine answers at unix://${socket} (DOCKER_HOST): ENOENT. BERTH_RUNTIME=docker needs one: start dockerd, or set DOCKER_HOST to the engine's address`,
    );
  }, 60_000);

  it('passes a machine that has what the configuration names', async () => {
    await expect(checkMachine(loadConfig({ HOST: 'localhost' }), 'server')).resolves.toBeUndefined();
    await expect(
      checkMachine(loadConfig({ BERTH_RUNTIME: 'sim', BERTH_CADDY_PATH: '/nope' }), 'server'),
    ).resolves.toBeUndefined();
  });
});
