import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  /** The console's public origin; every family's base URL hangs off it. */
  publicUrl: string;
  dataDir: string;
  /** postgres://... to use PostgreSQL; undefined → embedded PGlite in dataDir ("memory" for tests). */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  corsOrigins: string[];
  /** Trust X-Forwarded-* from a reverse proxy (so login limits count the real client address). */
  trustProxy: boolean;
  /** Directory of the built console; served at / when it exists. */
  webDist: string;
  /** Login attempts allowed per account and per address in the window. */
  loginRateLimit: { perAccount: number; perAddress: number; windowSeconds: number };
  emailVerificationTtlSeconds: number;
  /** How long an invitation link stays valid (a resend starts a new period). */
  invitationTtlSeconds: number;
  /** Run the operations worker inside the server process (off when separate `berth worker`s run). */
  worker: boolean;
  /** How long a worker holds an operation without renewing before others may take it over. */
  workerLeaseMs: number;
  /** Base duration of one simulated runtime step, in milliseconds. */
  simStepMs: number;
  /** Optional outside services the console links to; hidden when unset. */
  docsUrl: string | undefined;
  statusPageUrl: string | undefined;
}

const here = path.dirname(fileURLToPath(import.meta.url));

function intFromEnv(value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) throw new Error(`Expected an integer, got "${value}"`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFromEnv(env.PORT, 4000);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.BERTH_DATA_DIR || '.berth'),
    databaseUrl: env.DATABASE_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Berth <no-reply@localhost>',
    jwtSecret: env.BERTH_JWT_SECRET || undefined,
    corsOrigins: (env.BERTH_CORS_ORIGINS || '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    trustProxy: env.BERTH_TRUST_PROXY === 'true' || env.BERTH_TRUST_PROXY === '1',
    webDist: path.resolve(here, '../../web/dist'),
    loginRateLimit: {
      perAccount: intFromEnv(env.BERTH_LOGIN_LIMIT_PER_ACCOUNT, 10),
      perAddress: intFromEnv(env.BERTH_LOGIN_LIMIT_PER_ADDRESS, 50),
      windowSeconds: 15 * 60,
    },
    emailVerificationTtlSeconds: 24 * 60 * 60,
    invitationTtlSeconds: 7 * 24 * 60 * 60,
    worker: !['0', 'false', 'off', 'no'].includes((env.BERTH_WORKER || 'on').toLowerCase()),
    simStepMs: intFromEnv(env.BERTH_SIM_STEP_MS, 300),
    workerLeaseMs: intFromEnv(env.BERTH_WORKER_LEASE_MS, 30_000),
    docsUrl: env.BERTH_DOCS_URL || undefined,
    statusPageUrl: env.BERTH_STATUS_PAGE_URL || undefined,
  };
}

/** The public base URL of each service family (contract §2). */
export function familyUrls(config: Pick<Config, 'publicUrl'>) {
  return {
    app: config.publicUrl,
    auth: `${config.publicUrl}/auth`,
    api: `${config.publicUrl}/api`,
    billing: `${config.publicUrl}/billing`,
    metrics: `${config.publicUrl}/metrics`,
  };
}
export type FamilyUrls = ReturnType<typeof familyUrls>;
