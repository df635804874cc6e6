import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { type BerthApp, buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { runningEdgePid, stopEdge } from '../runtimes/docker/caddy-process.ts';
import { freePort } from './server-process.ts';
import { openTestDatabase } from './test-database.ts';

export const TEST_PUBLIC_URL = 'http://berth.test';
export const STRONG_PASSWORD = 'Correct-Horse9';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  tokenId: string;
  sessionCookie: string;
}

/** The edges test servers made for themselves and have not stopped yet. */
const ownEdgeDirs = new Set<string>();

async function stopOwnEdge(dir: string) {
  await stopEdge(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  ownEdgeDirs.delete(dir);
}

/** A test file that ends without closing its server must not leave the edge, which outlives it, running. */
function stopOwnEdgesAtExit() {
  for (const dir of ownEdgeDirs) {
    const pid = runningEdgePid(dir);
    if (pid !== null) process.kill(pid, 'SIGTERM');
  }
}

/** A server on a fresh database, with helpers that go through the real HTTP routes. */
export async function testApp(
  overrides: Partial<Config> = {},
  options: Pick<Parameters<typeof buildApp>[1] & object, 'onOutboxMail' | 'logger'> & {
    /** A database of the test's own (one kept on disk, to start the server again on it). */
    database?: Database;
  } = {},
) {
  const defaults = loadConfig({});
  // The docker runtime runs an edge, which outlives its server (caddy-process.ts): one the test does not
  // configure itself gets a temporary directory and free ports, and stops with the test's server.
  const ownEdgeDir =
    overrides.runtime === 'docker' && !overrides.edge
      ? fs.mkdtempSync(path.join(tmpdir(), 'berth-test-edge-'))
      : null;
  if (ownEdgeDir) {
    if (!process.listeners('exit').includes(stopOwnEdgesAtExit)) process.on('exit', stopOwnEdgesAtExit);
    ownEdgeDirs.add(ownEdgeDir);
    defaults.edge = {
      ...defaults.edge,
      httpPort: await freePort(),
      httpsPort: await freePort(),
      dir: ownEdgeDir,
    };
  }
  // Tests drive the worker themselves (worker.drain()) and simulate steps in a millisecond.
  const config: Config = {
    ...defaults,
    publicUrl: TEST_PUBLIC_URL,
    publicUrlSet: true,
    worker: false,
    simStepMs: 1,
    // Every answer a test provokes is checked against its route's declared shape.
    checkResponses: true,
    // Test files sign many users up from one address (127.0.0.1) in a few seconds; the sign-up limit's
    // own tests (auth/abuse-limits.test.ts) set the limit they test.
    signupRateLimit: { perAddress: 10_000, windowSeconds: 60 },
    // Plan limits hold in every test; the largest plan leaves room for what other files make. The plans'
    // own tests (billing/plans) start organizations on the plans they test.
    defaultPlan: 'enterprise',
    ...overrides,
  };
  const built: BerthApp = await buildApp(config, {
    ...options,
    database: options.database ?? (await openTestDatabase()),
  }).catch(async (error: unknown) => {
    if (ownEdgeDir) await stopOwnEdge(ownEdgeDir);
    throw error;
  });
  const { app } = built;

  async function call(
    method: Method,
    url: string,
    options: { token?: string; body?: unknown; cookie?: string; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    return app.inject({
      method,
      url,
      headers: {
        'content-type': 'application/hal+json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    });
  }

  function uniqueEmail(prefix = 'user'): string {
    return `${prefix}-${randomBytes(5).toString('hex')}@example.com`;
  }

  async function latestMailTo(email: string) {
    const mail = await built.mailer.recent(500);
    const found = mail.find((m) => m.to === email);
    if (!found) throw new Error(`No mail to ${email}`);
    return found;
  }

  /** The challenge id and code of the newest verification link mailed to the address. */
  async function verificationLink(email: string) {
    const { text } = await latestMailTo(email);
    const match = /\/verify\/([^/\s]+)\/([^/\s]+)/.exec(text);
    if (!match?.[1] || !match[2]) throw new Error('No verification link in the mail');
    return { challengeId: match[1], code: match[2] };
  }

  async function login(email: string, password: string, scope = 'manage') {
    return call('POST', '/auth/tokens', {
      body: { username: email, password, otp_token: '', grant_type: 'password', scope, expires_in: 43200 },
    });
  }

  /** Signs a user up and logs them in; verified unless told otherwise. */
  async function signUp(
    options: { verified?: boolean; name?: string; email?: string } = {},
  ): Promise<TestUser> {
    const email = options.email ?? uniqueEmail();
    const created = await call('POST', '/auth/users', {
      body: {
        name: options.name ?? 'Test User',
        email,
        password: STRONG_PASSWORD,
        challengeToken: '',
        origin: 'app',
      },
    });
    if (created.statusCode !== 201) throw new Error(`sign-up failed: ${created.body}`);
    if (options.verified !== false) {
      const { challengeId, code } = await verificationLink(email);
      const verified = await call('POST', '/auth/verifications', {
        body: { type: 'email_verification_challenge', challenge_id: challengeId, verification_code: code },
      });
      if (verified.statusCode !== 204) throw new Error(`verification failed: ${verified.body}`);
    }
    const session = await login(email, STRONG_PASSWORD);
    if (session.statusCode !== 201) throw new Error(`login failed: ${session.body}`);
    const token = session.json();
    const cookie = session.cookies.find((c) => c.name === 'berth_session');
    return {
      id: created.json().id,
      email,
      password: STRONG_PASSWORD,
      token: token.access_token,
      tokenId: token.id,
      sessionCookie: cookie ? `berth_session=${cookie.value}` : '',
    };
  }

  async function elevate(user: TestUser): Promise<string> {
    const response = await login(user.email, user.password, 'elevated');
    if (response.statusCode !== 201) throw new Error(`elevation failed: ${response.body}`);
    return response.json().access_token;
  }

  async function createOrganization(user: TestUser, name = 'Acme Inc') {
    const response = await call('POST', '/auth/organizations', { token: user.token, body: { name } });
    if (response.statusCode !== 201) throw new Error(`organization failed: ${response.body}`);
    return response.json() as { id: string; name: string };
  }

  async function createEnvironment(user: TestUser, organizationId: string, handle: string) {
    const response = await call('POST', '/api/accounts', {
      token: user.token,
      body: { handle, organization_id: organizationId, type: 'development', onboarding_status: 'initiated' },
    });
    if (response.statusCode !== 201) throw new Error(`environment failed: ${response.body}`);
    return response.json() as { id: string; handle: string };
  }

  /** Starts an operation as the user (201 expected), runs the queue, and answers how it ended. */
  async function operate(user: TestUser, url: string, body: Record<string, unknown>) {
    const response = await call('POST', url, { token: user.token, body });
    if (response.statusCode !== 201)
      throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
    await built.worker.drain();
    const done = await call('GET', `/api/operations/${response.json().id}`, { token: user.token });
    return done.json() as { id: string; status: string };
  }

  /** An operation's log, through its signed logs link as the user. */
  async function operationLog(user: TestUser, operationId: number | string): Promise<string> {
    const pointer = await call('GET', `/api/operations/${operationId}/logs`, { token: user.token });
    const url = new URL(pointer.body);
    return (await app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
  }

  return {
    app,
    db: built.database.db,
    mailer: built.mailer,
    /** This start's mailbox secret (null with the mailbox off), as the start banner's link carries it. */
    mailboxSecret: built.mailboxSecret,
    worker: built.worker,
    reconciler: built.reconciler,
    logShipper: built.logShipper,
    metricShipper: built.metricShipper,
    autoscaler: built.autoscaler,
    recommender: built.recommender,
    activityReports: built.activityReports,
    runtimes: built.runtimes,
    databaseUrl: built.database.url,
    config,
    call,
    uniqueEmail,
    latestMailTo,
    verificationLink,
    login,
    signUp,
    elevate,
    createOrganization,
    createEnvironment,
    operate,
    operationLog,
    async close() {
      await built.close();
      if (ownEdgeDir) await stopOwnEdge(ownEdgeDir);
    },
  };
}
export type TestApp = Awaited<ReturnType<typeof testApp>>;
