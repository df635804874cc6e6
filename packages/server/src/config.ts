import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { isPlanName, PLAN_NAMES, type PlanName, trimEndChar } from '@berth/core';
import { isLoopbackHostname, type TrustProxy } from './http/client-address.ts';
import type { OutboundAllowList } from './security/outbound-guard.ts';
import { serverRoot } from './server-root.ts';

export type { TrustProxy };

export interface Config {
  port: number;
  /** The address the server listens on: an IP address or a host name (checked at start to resolve). */
  host: string;
  /** The server's log level, one of pino's. */
  logLevel: LogLevel;
  /** The console's public origin; every family's base URL hangs off it. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set; unset, the console and the links it follows use the origin it was opened at. */
  publicUrlSet: boolean;
  dataDir: string;
  /** postgres://... to use PostgreSQL; undefined → embedded PGlite in dataDir ("memory" for tests). */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  corsOrigins: string[];
  /**
   * Which reverse proxies may say who the client is (X-Forwarded-For), so login limits count the
   * real client address: none, the proxies at these addresses or ranges, or the last N hops.
   */
  trustProxy: TrustProxy;
  /**
   * Serve the outbox at /dev/mail (to direct requests from this machine that hold the secret of the start
   * banner's link only) and print each kept message's links. Off with SMTP_URL, and by default when
   * PUBLIC_URL is not on this machine, since then the console is published (BERTH_MAILBOX).
   */
  mailbox: boolean;
  /** Directory of the built console; served at / when it exists. */
  webDist: string;
  /**
   * Failed logins allowed per account and per address in the window; each device that logged in to an
   * account before (its device cookie) has the per-account allowance of its own, apart from the account.
   */
  loginRateLimit: { perAccount: number; perAddress: number; windowSeconds: number };
  /** Sign-ups, and checks of a sign-up (POST /claims/user), each allowed per client address in the window. */
  signupRateLimit: { perAddress: number; windowSeconds: number };
  /**
   * Wrong verification and invitation codes: allowed per link (past it the link is dead, and a new one
   * must be asked for) and per client address in the window (429 past it).
   */
  verificationRateLimit: { perCode: number; perAddress: number; windowSeconds: number };
  emailVerificationTtlSeconds: number;
  /**
   * Forgotten-password mails (POST /auth/password/resets/new): asked for per email address, known or
   * not, and per client address in the window (429 past it, the same answer for every address).
   */
  passwordResetRateLimit: { perEmail: number; perAddress: number; windowSeconds: number };
  /** How long a password reset link stays valid. */
  passwordResetTtlSeconds: number;
  /** How long an invitation link stays valid (a resend starts a new period). */
  invitationTtlSeconds: number;
  /** Run the operations worker inside the server process (off when separate `berth worker`s run). */
  worker: boolean;
  /** Workers one `npm run worker` process runs (BERTH_WORKER_CONCURRENCY). */
  workerConcurrency: number;
  /** How long a worker holds an operation without renewing before others may take it over. */
  workerLeaseMs: number;
  /** How often the worker looks for databases due an automatic backup and backups to prune (seconds). */
  backupCheckSeconds: number;
  /** How often the worker looks for environments due their weekly activity report, and makes pending ones (seconds). */
  activityReportCheckSeconds: number;
  /** Queued operations one organization may have, and operations one user may start per minute (429 past them). */
  operationLimits: { queuedPerOrganization: number; perUserPerMinute: number };
  /** Base duration of one simulated runtime step, in milliseconds. */
  simStepMs: number;
  /**
   * The default stack's runtime: `sim` (simulated), `docker` (real containers through the engine) or
   * `swarm` (a Docker Swarm cluster's services).
   */
  runtime: 'sim' | 'docker' | 'swarm';
  /**
   * The swarm runtime's cluster (BERTH_RUNTIME=swarm only, else null): its manager's Engine API
   * (BERTH_SWARM_HOST), the directory of the TLS client certificates a tcp:// manager needs
   * (BERTH_SWARM_TLS_DIR: ca.pem, cert.pem, key.pem), and the registry built images go to for every
   * node to pull (BERTH_REGISTRY, host:port).
   */
  swarm: { host: string; tlsDir: string | null; registry: string } | null;
  /** The apps' bare git repositories (`<dataDir>/git`), and the largest push they take. */
  git: { dir: string; maxPushBytes: number };
  /** DOCKER_HOST as set (the Docker client reads it itself), for the start's check that the engine answers. */
  dockerHost: string | undefined;
  /** The docker runtime's settings: its networks, and how long new containers have to answer. */
  docker: {
    /**
     * BERTH_DOCKER_NETWORK: the prefix of each environment's own bridge network
     * (`<prefix>-<installation>-env-<environment id>`), and the name of the one network every container
     * shared before environments had theirs (containers made then leave it as they are rolled out).
     */
    network: string;
    healthTimeoutSeconds: number;
    statsIntervalSeconds: number;
    /** Database images by `type` or `type:version` (BERTH_DATABASE_IMAGES), over the official ones. */
    databaseImages: Record<string, string>;
    /** Where database backups' dumps are kept (`<dataDir>/backups`). */
    backupDir: string;
  };
  /**
   * The docker runtime's edge (Caddy, a process of its own the server starts or takes over, which outlives
   * it; `npm run admin -- stop-edge` stops it): where endpoints answer, the domain their
   * default hostnames hang off, the email ACME certificates are asked with (none: Caddy's own authority),
   * the Caddy binary, and its directory (config, certificates, admin socket) under the data directory.
   */
  edge: {
    appsDomain: string;
    httpPort: number;
    httpsPort: number;
    acmeEmail: string | null;
    caddyPath: string;
    dir: string;
  };
  /**
   * Certificate authorities (PEM) log drain destinations may present besides the system's: a private CA
   * (BERTH_DRAIN_CA_FILE). Empty: the system's only.
   */
  drainCaCertificates: string[];
  /**
   * What drains may reach besides public addresses: the hosts and ranges of BERTH_DRAIN_ALLOW, or
   * everything with BERTH_DRAIN_ALLOW_PRIVATE=on.
   */
  drainAllow: Required<OutboundAllowList>;
  /**
   * How identity providers' metadata URLs are fetched (issue 36): through the outbound guard, public
   * addresses only unless BERTH_SSO_METADATA_ALLOW names the host or range, and trusting the system's
   * authorities plus BERTH_SSO_METADATA_CA_FILE's.
   */
  ssoMetadata: { allow: Required<OutboundAllowList>; ca: string[] };
  /** How often log drains ship (seconds). */
  drainIntervalSeconds: number;
  /** How often metric drains send their containers' figures (seconds; a minute by default). */
  metricDrainIntervalSeconds: number;
  /** Autoscaling modes the default stack offers (BERTH_AUTOSCALING), and how often the autoscaler looks. */
  autoscaling: AutoscalingModes;
  autoscaleIntervalSeconds: number;
  /** How often services due a daily sizing recommendation are looked for (seconds). */
  recommendationCheckSeconds: number;
  /** How long a service must have run before it is advised (minutes; a day by default). */
  recommendationMinObservedMinutes: number;
  /** How often the usage meter samples organizations and closes ended billing periods (seconds; issue 37). */
  usageMeterSeconds: number;
  /** Hold every answer against its route's response schema first (a stray field is a 500): tests, development. */
  checkResponses: boolean;
  /**
   * How organizations pay (BERTH_PAYMENTS): `none` charges nobody (every billing detail has a free
   * payment source), `local` runs the payment flow with Stripe's test tokens and charges nothing, `stripe`
   * keeps cards at Stripe. `trialDays`: the trial a new organization gets while payments are on.
   */
  payments: PaymentsConfig;
  /** The plan a new organization starts on (BERTH_DEFAULT_PLAN); owners or the operator change it later. */
  defaultPlan: PlanName;
  /**
   * Support tickets: the addresses they are mailed to (BERTH_SUPPORT_EMAIL; null: the server's
   * superusers), and where their attachments are kept (`<dataDir>/support`, outside the console's files).
   */
  support: { emails: string[] | null; dir: string };
  /**
   * The home dashboard (BERTH_HOME, on by default): every member of an organization lands on it. The
   * spec gates it by a list of organization ids; Berth makes that list a switch for the installation.
   */
  home: boolean;
  /** Optional outside services the console links to; hidden when unset. */
  docsUrl: string | undefined;
  statusPageUrl: string | undefined;
}

export interface PaymentsConfig {
  mode: 'none' | 'local' | 'stripe';
  trialDays: number;
  /** Set with `stripe` only: its keys, the webhook signing secret, and the API it calls. */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string; apiUrl: string } | null;
}

/** A configuration variable with a value the server cannot use: the start stops with this message. */
export class ConfigError extends Error {}

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function intFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  if (!/^-?\d{1,15}$/.test(value)) throw new ConfigError(`${name} must be an integer, got "${value}"`);
  return Number.parseInt(value, 10);
}

/** A whole number of at least `min` (a limit of 0 would lock everyone out; an interval of 0 spins). */
function countFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const value = intFromEnv(env, name, fallback);
  if (value < min) {
    throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${env[name]}"`);
  }
  return value;
}

const ON = ['1', 'true', 'on', 'yes'];
const OFF = ['0', 'false', 'off', 'no'];

/** A switch: on (1, true, on, yes) or off (0, false, off, no); anything else stops the start. */
function flagFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = (env[name] ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  if (ON.includes(value)) return true;
  if (OFF.includes(value)) return false;
  throw new ConfigError(
    `${name} must be on or off (also 1/0, true/false, yes/no), got "${value.slice(0, 100)}"`,
  );
}

/** An address the server is reached at: http(s) with a host. */
function publicUrlFromEnv(env: NodeJS.ProcessEnv, port: number): string {
  const value = (env.PUBLIC_URL ?? '').trim();
  if (value === '') return `http://localhost:${port}`;
  const parsed = URL.canParse(value) ? new URL(value) : null;
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new ConfigError(
      `PUBLIC_URL must be the http:// or https:// address people open Berth at (for example https://berth.example.com), got "${value.slice(0, 200)}"`,
    );
  }
  return trimEndChar(value, '/');
}

/**
 * A URL holding a password: checked for its scheme and host, and never printed whole (a wrong value
 * names only what was wrong with it).
 */
function secretUrlFromEnv(env: NodeJS.ProcessEnv, name: string, schemes: string[], example: string) {
  const value = (env[name] ?? '').trim();
  if (value === '') return undefined;
  const parsed = URL.canParse(value) ? new URL(value) : null;
  const accepted = schemes.map((scheme) => `${scheme}//`).join(' or ');
  if (!parsed)
    throw new ConfigError(`${name} must be a ${accepted} URL (for example ${example}); it is not a URL`);
  if (!schemes.includes(parsed.protocol)) {
    throw new ConfigError(
      `${name} must be a ${accepted} URL (for example ${example}), got one starting "${parsed.protocol}//"`,
    );
  }
  if (!parsed.hostname && !parsed.searchParams.get('host')) {
    throw new ConfigError(`${name} must name a host (for example ${example})`);
  }
  return value;
}

/** The loopback ranges: `true` and `1` mean "the proxy runs on this machine". */
const LOOPBACK_PROXIES = ['127.0.0.0/8', '::1/128'];

/**
 * BERTH_TRUST_PROXY: unset, `false` or `0` trusts no proxy; `true` or `1` trusts proxies on this
 * machine; a number N of 2 or more trusts the N proxies nearest the server, whatever their addresses;
 * otherwise a comma-separated list of addresses and CIDR ranges. Anything else stops the start.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true' || text === '1') return { addresses: LOOPBACK_PROXIES };
  // No leading zeros: `01` is not a way to say "trust whoever connects".
  if (/^[1-9]\d{0,2}$/.test(text)) return { hops: Number.parseInt(text, 10) };
  const addresses = text.split(',').map((entry) => entry.trim());
  for (const entry of addresses) {
    if (!isAddressOrRange(entry)) {
      throw new ConfigError(
        `BERTH_TRUST_PROXY must be true, a hop count, or a comma-separated list of addresses and CIDR ranges (for example 127.0.0.1,10.0.0.0/8); "${entry.slice(0, 100)}" is none of these`,
      );
    }
  }
  return { addresses };
}

function isAddressOrRange(entry: string): boolean {
  if (entry.length > 64) return false;
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (version === 4 ? 32 : 128);
}

/** A DNS name: labels of letters, digits and inner hyphens joined by dots (a trailing dot allowed). */
function isHostName(value: string): boolean {
  const labels = value.length <= 253 ? value.replace(/\.$/, '').split('.') : [];
  return labels.length > 0 && labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label));
}

/**
 * BERTH_DRAIN_ALLOW: host names, addresses and CIDR ranges separated by commas, which drains may reach
 * although private. A name lets through whatever it resolves to; a range, whatever lands in it. An entry
 * names no port: a collector's host is allowed on each of its ports.
 */
function parseDrainAllow(
  value: string | undefined,
  variable = 'BERTH_DRAIN_ALLOW',
  example = 'logs.internal,10.0.8.0/24',
): { hosts: string[]; ranges: string[] } {
  const text = (value ?? '').trim().toLowerCase();
  if (text.length > 4000)
    throw new ConfigError(`${variable} must be at most 4000 characters, got ${text.length}`);
  const hosts: string[] = [];
  const ranges: string[] = [];
  for (const entry of text.split(',').map((part) => part.trim())) {
    if (entry === '') continue;
    if (isAddressOrRange(entry)) ranges.push(entry);
    else if (isHostName(entry)) hosts.push(entry.replace(/\.$/, ''));
    else
      throw new ConfigError(
        `${variable} must be host names, addresses and CIDR ranges separated by commas (for example ${example}; no ports); "${entry.slice(0, 100)}" is none of these`,
      );
  }
  return { hosts, ranges };
}

/** localhost, 127.x.x.x or [::1]: the console is opened on this machine only. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopbackHostname(new URL(url).hostname);
  } catch {
    return false;
  }
}

function mailboxFromEnv(env: NodeJS.ProcessEnv, publicUrl: string): boolean {
  const value = (env.BERTH_MAILBOX ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return isLoopbackUrl(publicUrl);
  if (value === 'on') return true;
  if (value === 'off') return false;
  throw new ConfigError(`BERTH_MAILBOX must be auto, on or off, got "${value.slice(0, 100)}"`);
}

export interface AutoscalingModes {
  horizontal: boolean;
  vertical: boolean;
}

function autoscalingFromEnv(env: NodeJS.ProcessEnv): AutoscalingModes {
  const value = (env.BERTH_AUTOSCALING ?? '').trim().toLowerCase();
  if (value === '') return { horizontal: true, vertical: true };
  if (value === 'off' || value === 'none') return { horizontal: false, vertical: false };
  const modes = value
    .slice(0, 100)
    .split(',')
    .map((mode) => mode.trim());
  const unknown = modes.find((mode) => mode !== 'horizontal' && mode !== 'vertical');
  if (unknown !== undefined) {
    throw new ConfigError(
      `BERTH_AUTOSCALING must be horizontal, vertical, both separated by a comma, or off; got "${value.slice(0, 100)}"`,
    );
  }
  return { horizontal: modes.includes('horizontal'), vertical: modes.includes('vertical') };
}

function runtimeFromEnv(env: NodeJS.ProcessEnv): Config['runtime'] {
  const value = (env.BERTH_RUNTIME ?? '').trim().toLowerCase();
  if (value === '' || value === 'sim') return 'sim';
  if (value === 'docker') return 'docker';
  if (value === 'swarm') return 'swarm';
  throw new ConfigError(`BERTH_RUNTIME must be sim, docker or swarm, got "${value.slice(0, 100)}"`);
}

/** The files a TLS client of a remote Engine API needs, as Docker's own tools name them. */
export const SWARM_TLS_FILES = ['ca.pem', 'cert.pem', 'key.pem'] as const;

/** How an Engine API address is reached: a unix socket, TCP (host and port named), or null for neither. */
export function engineAddressKind(address: string): 'unix' | 'tcp' | null {
  const parsed = address.length <= 1000 && URL.canParse(address) ? new URL(address) : null;
  if (parsed?.protocol === 'unix:' && parsed.pathname.length > 1) return 'unix';
  if (parsed?.protocol === 'tcp:' && parsed.hostname !== '' && parsed.port !== '') return 'tcp';
  return null;
}

/** A registry's `host[:port]`, as nodes pull from it. */
export function isRegistryAddress(registry: string): boolean {
  return (
    registry.length <= 260 &&
    /^[a-zA-Z0-9.-]{1,253}(:[0-9]{1,5})?$/.test(registry) &&
    !registry.startsWith('-')
  );
}

/** The swarm runtime's cluster settings: checked only when BERTH_RUNTIME=swarm. */
function swarmFromEnv(env: NodeJS.ProcessEnv, runtime: Config['runtime']): Config['swarm'] {
  if (runtime !== 'swarm') return null;
  const host = (env.BERTH_SWARM_HOST ?? '').trim();
  const kind = engineAddressKind(host);
  const tcp = kind === 'tcp';
  if (!kind)
    throw new ConfigError(
      `BERTH_SWARM_HOST must be the Swarm manager's Engine API, unix:///path/to/docker.sock or tcp://host:2376, got "${host.slice(0, 100)}"`,
    );
  const tlsValue = (env.BERTH_SWARM_TLS_DIR ?? '').trim();
  const tlsDir = tlsValue ? path.resolve(tlsValue.slice(0, 4096)) : null;
  if (tcp && !tlsDir)
    throw new ConfigError(
      `BERTH_SWARM_TLS_DIR must name the directory of the manager's TLS client certificates (${SWARM_TLS_FILES.join(', ')}): BERTH_SWARM_HOST=${host.slice(0, 100)} is reached over TCP, and only with TLS`,
    );
  if (tlsDir) {
    const missing = SWARM_TLS_FILES.filter((file) => !fs.existsSync(path.join(tlsDir, file)));
    if (missing.length) throw new ConfigError(`BERTH_SWARM_TLS_DIR: ${tlsDir} has no ${missing.join(', ')}`);
  }
  const registry = (env.BERTH_REGISTRY ?? '').trim();
  if (!isRegistryAddress(registry))
    throw new ConfigError(
      `BERTH_REGISTRY must be the host:port of the registry every node of the Swarm pulls from (registry.example.com:5000), got "${registry.slice(0, 100)}"`,
    );
  return { host, tlsDir, registry };
}

function dockerNetworkFromEnv(env: NodeJS.ProcessEnv): string {
  const value = (env.BERTH_DOCKER_NETWORK ?? '').trim();
  if (value === '') return 'berth';
  if (value.length > 64 || !/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(value))
    throw new ConfigError(
      `BERTH_DOCKER_NETWORK must be a Docker network name (letters, digits, _ . -), got "${value.slice(0, 100)}"`,
    );
  return value;
}

/** `postgresql=registry.example.com/postgres:{version},redis:7.2=redis:7.2.5`: images per engine (and version). */
function databaseImagesFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const value = (env.BERTH_DATABASE_IMAGES ?? '').trim();
  if (value === '') return {};
  const problem = () =>
    new ConfigError(
      `BERTH_DATABASE_IMAGES must be engine=image pairs separated by commas (postgresql=postgres:{version}), got "${value.slice(0, 100)}"`,
    );
  if (value.length > 4000) throw problem();
  const images: Record<string, string> = {};
  for (const entry of value.split(',')) {
    const [key = '', image = '', extra] = entry.split('=').map((part) => part.trim());
    if (extra !== undefined || key.length > 40 || image.length > 300) throw problem();
    if (!/^[a-z]+(:[0-9][0-9.]*)?$/.test(key) || !/^[a-zA-Z0-9][a-zA-Z0-9._/:@{}-]*$/.test(image))
      throw problem();
    images[key] = image;
  }
  return images;
}

function drainCaFromEnv(env: NodeJS.ProcessEnv, variable = 'BERTH_DRAIN_CA_FILE'): string[] {
  const file = (env[variable] ?? '').trim();
  if (!file) return [];
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${variable} cannot be read: ${(error as Error).message}`);
  }
  // A file of something else would be taken silently and every drain would fail its TLS later.
  try {
    new X509Certificate(pem);
  } catch {
    throw new ConfigError(
      `${variable} must be a PEM file of certificates (-----BEGIN CERTIFICATE-----); ${file.slice(0, 200)} holds none`,
    );
  }
  return [pem];
}

function portFromEnv(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = (env[name] ?? '').trim();
  if (value === '') return fallback;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65535))
    throw new ConfigError(`${name} must be a port from 1 to 65535, got "${value.slice(0, 100)}"`);
  return port;
}

function appsDomainFromEnv(env: NodeJS.ProcessEnv): string {
  const value = (env.BERTH_APPS_DOMAIN ?? '').trim().toLowerCase().replace(/\.$/, '');
  if (value === '') return 'localhost';
  // Labels of letters, digits and inner hyphens, joined by dots: checked by length first, then split.
  const labels = value.length <= 200 ? value.split('.') : [];
  if (!labels.length || !labels.every((label) => /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)))
    throw new ConfigError(
      `BERTH_APPS_DOMAIN must be a domain name such as apps.example.com, got "${value.slice(0, 100)}"`,
    );
  return value;
}

function acmeEmailFromEnv(env: NodeJS.ProcessEnv): string | null {
  const value = (env.BERTH_ACME_EMAIL ?? '').trim();
  if (value === '') return null;
  if (value.length > 254 || !/^[^\s@]+@[^\s@]+$/.test(value))
    throw new ConfigError(`BERTH_ACME_EMAIL must be an email address, got "${value.slice(0, 100)}"`);
  return value;
}

/** An address of this machine or a host name; a dotted number that is no IP address is neither (999.1.1.1). */
function hostFromEnv(env: NodeJS.ProcessEnv): string {
  const value = (env.HOST ?? '').trim();
  if (value === '') return '0.0.0.0';
  const numeric = /^[\d.]+$/.test(value.slice(0, 253));
  if (isIP(value) === 0 && (numeric || !isHostName(value.toLowerCase())))
    throw new ConfigError(
      `HOST must be an IP address of this machine (0.0.0.0 for every interface, 127.0.0.1 for this machine only) or a host name, got "${value.slice(0, 100)}"`,
    );
  return value;
}

function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const value = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  if (value === '') return 'info';
  const level = LOG_LEVELS.find((name) => name === value);
  if (!level)
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value.slice(0, 100)}"`);
  return level;
}

/** An http(s) address with a host, such as a documentation site. */
function webUrlFromEnv(env: NodeJS.ProcessEnv, name: string, example: string): string | undefined {
  const value = (env[name] ?? '').trim();
  if (value === '') return undefined;
  const parsed = value.length <= 2000 && URL.canParse(value) ? new URL(value) : null;
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname)
    throw new ConfigError(
      `${name} must be an http:// or https:// address (for example ${example}), got "${value.slice(0, 200)}"`,
    );
  return value;
}

/** Origins allowed to call the API from a browser: each scheme, host and port only (what a browser sends in Origin). */
function corsOriginsFromEnv(env: NodeJS.ProcessEnv): string[] {
  const value = (env.BERTH_CORS_ORIGINS ?? '').trim();
  if (value.length > 4000)
    throw new ConfigError(`BERTH_CORS_ORIGINS must be at most 4000 characters, got ${value.length}`);
  const origins = value
    .split(',')
    .map((origin) => trimEndChar(origin.trim(), '/'))
    .filter(Boolean);
  return origins.map((origin) => {
    const parsed = URL.canParse(origin) ? new URL(origin) : null;
    const bare =
      parsed !== null &&
      ['http:', 'https:'].includes(parsed.protocol) &&
      parsed.hostname !== '' &&
      !parsed.username &&
      !parsed.password &&
      parsed.pathname === '/' &&
      !origin.includes('?') &&
      !origin.includes('#');
    if (!bare)
      throw new ConfigError(
        `BERTH_CORS_ORIGINS must be http:// or https:// origins (scheme, host and port, no path) separated by commas, for example https://console.example.com; "${origin.slice(0, 100)}" is not one`,
      );
    // As a browser writes Origin: host in lower case, a default port left out.
    return parsed.origin;
  });
}

/** BERTH_SUPPORT_EMAIL: addresses separated by commas; unset, null (the superusers get the tickets). */
function supportEmailsFromEnv(env: NodeJS.ProcessEnv): string[] | null {
  const value = (env.BERTH_SUPPORT_EMAIL ?? '').trim();
  if (value === '') return null;
  const addresses = value.length <= 2000 ? value.split(',').map((address) => address.trim()) : [];
  const valid = (address: string) => address.length <= 254 && /^[^\s@<>,]+@[^\s@<>,]+$/.test(address);
  if (!addresses.length || !addresses.every(valid))
    throw new ConfigError(
      `BERTH_SUPPORT_EMAIL must be email addresses separated by commas (support@example.com), got "${value.slice(0, 100)}"`,
    );
  return addresses;
}

/** The sender: an address, or a name and an address as `Name <address>`. */
function mailFromEnv(env: NodeJS.ProcessEnv): string {
  const value = (env.MAIL_FROM ?? '').trim();
  if (value === '') return 'Berth <no-reply@localhost>';
  const address = /^[^\s@<>]+@[^\s@<>]+$/;
  const named = /^[^<>]{0,200}<([^<>]{1,254})>$/;
  const ok = value.length <= 320 && (address.test(value) || address.test(named.exec(value)?.[1] ?? ''));
  if (!ok)
    throw new ConfigError(
      `MAIL_FROM must be an email address or a name and an address (Berth <no-reply@example.com>), got "${value.slice(0, 100)}"`,
    );
  return value;
}

/**
 * At least 16 bytes: it signs every token and every sealed secret's key is derived from it (a one-character
 * secret is guessed at once). 32 bytes are advised, but a shorter secret an installation already runs on is
 * taken with a warning (`jwtSecretIsShort`): changing it would lose every sealed secret and orphan the
 * containers it labels. Never printed.
 */
export const JWT_SECRET_MIN_BYTES = 16;
export const JWT_SECRET_ADVISED_BYTES = 32;
function jwtSecretFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.BERTH_JWT_SECRET ?? '';
  if (value === '') return undefined;
  const bytes = Buffer.byteLength(value);
  if (bytes < JWT_SECRET_MIN_BYTES || bytes > 4096)
    throw new ConfigError(
      `BERTH_JWT_SECRET must be from ${JWT_SECRET_MIN_BYTES} to 4096 bytes (${JWT_SECRET_ADVISED_BYTES} or more advised; it signs every access token; make one with: openssl rand -base64 48), got ${bytes} byte(s)`,
    );
  return value;
}

/** The start's warning for a BERTH_JWT_SECRET shorter than advised, or null. */
export function jwtSecretWarning(config: Pick<Config, 'jwtSecret'>): string | null {
  const bytes = config.jwtSecret === undefined ? 0 : Buffer.byteLength(config.jwtSecret);
  if (bytes === 0 || bytes >= JWT_SECRET_ADVISED_BYTES) return null;
  return `BERTH_JWT_SECRET has ${bytes} bytes; ${JWT_SECRET_ADVISED_BYTES} or more are advised. It is kept, since changing it loses every sealed secret (2FA, database credentials, drain secrets): a new installation should start with a longer one (openssl rand -base64 48).`;
}

/** The engine's address as Docker's own tools take it; checked only when the docker runtime will use it. */
function dockerHostFromEnv(env: NodeJS.ProcessEnv, runtime: Config['runtime']): string | undefined {
  const value = (env.DOCKER_HOST ?? '').trim();
  if (value === '' || runtime !== 'docker') return value || undefined;
  const parsed = value.length <= 1000 && URL.canParse(value) ? new URL(value) : null;
  const ok =
    parsed !== null &&
    ((parsed.protocol === 'unix:' && parsed.pathname.length > 1) ||
      (['tcp:', 'ssh:'].includes(parsed.protocol) && parsed.hostname !== ''));
  if (!ok)
    throw new ConfigError(
      `DOCKER_HOST must be unix:///path/to/docker.sock, tcp://host:port or ssh://user@host, got "${value.slice(0, 100)}"`,
    );
  return value;
}

/** A Stripe key or secret: its prefix, then letters, digits and underscores (never printed). */
function stripeKeyFromEnv(env: NodeJS.ProcessEnv, name: string, prefixes: string[]): string {
  const value = (env[name] ?? '').trim();
  const shaped =
    value.length <= 500 &&
    prefixes.some((prefix) => value.startsWith(prefix)) &&
    /^[A-Za-z0-9_]+$/.test(value);
  if (!shaped) {
    throw new ConfigError(
      `${name} must be set with BERTH_PAYMENTS=stripe, to a key starting ${prefixes.join(' or ')} (from Stripe's dashboard)`,
    );
  }
  return value;
}

/**
 * BERTH_STRIPE_API_URL: https, or http to this machine only (every call carries the secret key), and an
 * origin alone: the stripe package keeps only the scheme, host and port, so a path would be dropped.
 */
function stripeApiUrlFromEnv(env: NodeJS.ProcessEnv): string {
  const name = 'BERTH_STRIPE_API_URL';
  const value = webUrlFromEnv(env, name, 'https://api.stripe.com');
  if (value === undefined) return 'https://api.stripe.com';
  const url = new URL(value);
  const origin = url.origin;
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    throw new ConfigError(
      `${name} must be an https:// address (http:// only to this machine: every call carries STRIPE_SECRET_KEY), got "${origin}"`,
    );
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(`${name} must be an address with no path, query or credentials, such as ${origin}`);
  }
  return value;
}

function paymentsFromEnv(env: NodeJS.ProcessEnv): PaymentsConfig {
  const value = (env.BERTH_PAYMENTS ?? '').trim().toLowerCase();
  const mode = value === '' ? 'none' : value;
  if (mode !== 'none' && mode !== 'local' && mode !== 'stripe') {
    throw new ConfigError(`BERTH_PAYMENTS must be none, local or stripe, got "${value.slice(0, 100)}"`);
  }
  const trialDays = countFromEnv(env, 'BERTH_TRIAL_DAYS', 14, 0);
  if (trialDays > 3650) {
    throw new ConfigError(`BERTH_TRIAL_DAYS must be at most 3650, got "${env.BERTH_TRIAL_DAYS}"`);
  }
  const apiUrl = stripeApiUrlFromEnv(env);
  if (mode !== 'stripe') return { mode, trialDays, stripe: null };
  return {
    mode,
    trialDays,
    stripe: {
      secretKey: stripeKeyFromEnv(env, 'STRIPE_SECRET_KEY', ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_']),
      publishableKey: stripeKeyFromEnv(env, 'STRIPE_PUBLISHABLE_KEY', ['pk_live_', 'pk_test_']),
      webhookSecret: stripeKeyFromEnv(env, 'STRIPE_WEBHOOK_SECRET', ['whsec_']),
      apiUrl,
    },
  };
}

/** BERTH_DEFAULT_PLAN: one of the plan names (spec 1 §3); starter when unset. */
function defaultPlanFromEnv(env: NodeJS.ProcessEnv): PlanName {
  const value = (env.BERTH_DEFAULT_PLAN ?? '').trim().toLowerCase();
  if (value === '') return 'starter';
  if (value.length > 40 || !isPlanName(value)) {
    throw new ConfigError(
      `BERTH_DEFAULT_PLAN must be one of ${PLAN_NAMES.join(', ')}, got "${value.slice(0, 100)}"`,
    );
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = portFromEnv(env, 'PORT', 4000);
  const publicUrl = publicUrlFromEnv(env, port);
  const databaseUrl = secretUrlFromEnv(
    env,
    'DATABASE_URL',
    ['postgres:', 'postgresql:'],
    'postgres://berth:secret@localhost:5432/berth',
  );
  const worker = flagFromEnv(env, 'BERTH_WORKER', true);
  if (!worker && !databaseUrl) {
    throw new ConfigError(
      'BERTH_WORKER=off needs DATABASE_URL: with the embedded database no other process can reach the queue, so every operation would wait forever',
    );
  }
  const runtime = runtimeFromEnv(env);
  return {
    port,
    host: hostFromEnv(env),
    logLevel: logLevelFromEnv(env),
    publicUrl,
    publicUrlSet: (env.PUBLIC_URL ?? '').trim() !== '',
    dataDir: path.resolve(env.BERTH_DATA_DIR || '.berth'),
    databaseUrl,
    smtpUrl: secretUrlFromEnv(
      env,
      'SMTP_URL',
      ['smtp:', 'smtps:'],
      'smtps://user:secret@smtp.example.com:465',
    ),
    mailFrom: mailFromEnv(env),
    jwtSecret: jwtSecretFromEnv(env),
    corsOrigins: corsOriginsFromEnv(env),
    trustProxy: parseTrustProxy(env.BERTH_TRUST_PROXY),
    mailbox: mailboxFromEnv(env, publicUrl),
    webDist: path.resolve(serverRoot, '../web/dist'),
    loginRateLimit: {
      perAccount: countFromEnv(env, 'BERTH_LOGIN_LIMIT_PER_ACCOUNT', 10),
      perAddress: countFromEnv(env, 'BERTH_LOGIN_LIMIT_PER_ADDRESS', 50),
      windowSeconds: 15 * 60,
    },
    signupRateLimit: {
      perAddress: countFromEnv(env, 'BERTH_SIGNUP_LIMIT_PER_ADDRESS', 20),
      windowSeconds: 60,
    },
    verificationRateLimit: {
      perCode: countFromEnv(env, 'BERTH_VERIFICATION_LIMIT_PER_CODE', 5),
      perAddress: countFromEnv(env, 'BERTH_VERIFICATION_LIMIT_PER_ADDRESS', 20),
      windowSeconds: 15 * 60,
    },
    emailVerificationTtlSeconds: 24 * 60 * 60,
    passwordResetRateLimit: {
      perEmail: countFromEnv(env, 'BERTH_PASSWORD_RESET_LIMIT_PER_EMAIL', 5),
      perAddress: countFromEnv(env, 'BERTH_PASSWORD_RESET_LIMIT_PER_ADDRESS', 20),
      windowSeconds: 60 * 60,
    },
    passwordResetTtlSeconds: 60 * 60,
    invitationTtlSeconds: 7 * 24 * 60 * 60,
    worker,
    workerConcurrency: countFromEnv(env, 'BERTH_WORKER_CONCURRENCY', 1),
    simStepMs: countFromEnv(env, 'BERTH_SIM_STEP_MS', 300, 0),
    runtime,
    git: {
      dir: path.join(path.resolve(env.BERTH_DATA_DIR || '.berth'), 'git'),
      maxPushBytes: countFromEnv(env, 'BERTH_GIT_MAX_PUSH_MB', 500) * 1024 * 1024,
    },
    dockerHost: dockerHostFromEnv(env, runtime),
    swarm: swarmFromEnv(env, runtime),
    docker: {
      network: dockerNetworkFromEnv(env),
      healthTimeoutSeconds: countFromEnv(env, 'BERTH_HEALTH_CHECK_TIMEOUT_SECONDS', 60),
      statsIntervalSeconds: countFromEnv(env, 'BERTH_DOCKER_STATS_SECONDS', 10),
      databaseImages: databaseImagesFromEnv(env),
      backupDir: path.join(path.resolve(env.BERTH_DATA_DIR || '.berth'), 'backups'),
    },
    edge: {
      appsDomain: appsDomainFromEnv(env),
      httpPort: portFromEnv(env, 'BERTH_EDGE_HTTP_PORT', 8080),
      httpsPort: portFromEnv(env, 'BERTH_EDGE_HTTPS_PORT', 8443),
      acmeEmail: acmeEmailFromEnv(env),
      caddyPath: (env.BERTH_CADDY_PATH ?? '').trim() || 'caddy',
      dir: path.join(path.resolve(env.BERTH_DATA_DIR || '.berth'), 'edge'),
    },
    drainCaCertificates: drainCaFromEnv(env),
    drainAllow: {
      everything: flagFromEnv(env, 'BERTH_DRAIN_ALLOW_PRIVATE', false),
      ...parseDrainAllow(env.BERTH_DRAIN_ALLOW),
    },
    ssoMetadata: {
      allow: {
        everything: false,
        ...parseDrainAllow(
          env.BERTH_SSO_METADATA_ALLOW,
          'BERTH_SSO_METADATA_ALLOW',
          'idp.internal,10.0.9.0/24',
        ),
      },
      ca: drainCaFromEnv(env, 'BERTH_SSO_METADATA_CA_FILE'),
    },
    drainIntervalSeconds: countFromEnv(env, 'BERTH_DRAIN_INTERVAL_SECONDS', 10),
    metricDrainIntervalSeconds: countFromEnv(env, 'BERTH_METRIC_DRAIN_INTERVAL_SECONDS', 60),
    autoscaling: autoscalingFromEnv(env),
    autoscaleIntervalSeconds: countFromEnv(env, 'BERTH_AUTOSCALE_INTERVAL_SECONDS', 30),
    recommendationCheckSeconds: countFromEnv(env, 'BERTH_RECOMMENDATION_CHECK_SECONDS', 3600),
    usageMeterSeconds: countFromEnv(env, 'BERTH_USAGE_METER_SECONDS', 300),
    recommendationMinObservedMinutes: countFromEnv(env, 'BERTH_RECOMMENDATION_MIN_OBSERVED_MINUTES', 1440, 0),
    checkResponses: flagFromEnv(env, 'BERTH_CHECK_RESPONSES', false),
    workerLeaseMs: countFromEnv(env, 'BERTH_WORKER_LEASE_MS', 30_000),
    backupCheckSeconds: countFromEnv(env, 'BERTH_BACKUP_CHECK_SECONDS', 3600),
    activityReportCheckSeconds: countFromEnv(env, 'BERTH_ACTIVITY_REPORT_CHECK_SECONDS', 3600),
    operationLimits: {
      queuedPerOrganization: countFromEnv(env, 'BERTH_QUEUED_OPERATIONS_PER_ORGANIZATION', 100),
      perUserPerMinute: countFromEnv(env, 'BERTH_OPERATIONS_PER_USER_PER_MINUTE', 60),
    },
    payments: paymentsFromEnv(env),
    defaultPlan: defaultPlanFromEnv(env),
    support: {
      emails: supportEmailsFromEnv(env),
      dir: path.join(path.resolve(env.BERTH_DATA_DIR || '.berth'), 'support'),
    },
    home: flagFromEnv(env, 'BERTH_HOME', true),
    docsUrl: webUrlFromEnv(env, 'BERTH_DOCS_URL', 'https://docs.example.com'),
    statusPageUrl: webUrlFromEnv(env, 'BERTH_STATUS_PAGE_URL', 'https://status.example.com'),
  };
}

/** For the server and worker processes: a wrong variable stops the start with its message, no trace. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Berth cannot start: ${error.message}`);
    process.exit(1);
  }
}

/** How drains reach their destinations: the operator's extra authorities, and what they may reach besides public addresses. */
export function drainTlsOf(config: Pick<Config, 'drainCaCertificates' | 'drainAllow'>) {
  return {
    ...(config.drainCaCertificates.length ? { ca: config.drainCaCertificates } : {}),
    allow: config.drainAllow,
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

/**
 * The family URLs a request should be answered with: PUBLIC_URL's when set; unset, the origin the
 * request came to (a console opened from another machine calls that machine, not its own localhost).
 */
export function familyUrlsFor(
  config: Pick<Config, 'publicUrl' | 'publicUrlSet'>,
  request: { protocol: string; host: string },
): FamilyUrls {
  if (config.publicUrlSet || !request.host) return familyUrls(config);
  return familyUrls({ publicUrl: `${request.protocol}://${request.host}` });
}
