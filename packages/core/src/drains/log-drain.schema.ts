import { z } from 'zod';
import { endpointMessages, parsePort } from '../endpoints/endpoint.schema.ts';
import { handleSchema } from '../environments/environment.schema.ts';
import { MAX_LENGTH } from '../text/limits.ts';

// spec 2 §3 (log drain), §5 (its messages) and §9 (types and sources); contract §4.3 log_drain and §5.10.

/** The types the console offers (spec 2 §9). */
export const LOG_DRAIN_TYPES = [
  'https_post',
  'logdna',
  'sumologic',
  'datadog',
  'syslog_tls_tcp',
  'papertrail',
  'solarwinds',
  'insightops',
  'elasticsearch_database',
] as const;
export type LogDrainType = (typeof LOG_DRAIN_TYPES)[number];

/** What a drain is stored as (contract §4.3): HTTPS services are `https_post`, syslog services `syslog_tls_tcp`. */
export const STORED_LOG_DRAIN_TYPES = [
  'https_post',
  'syslog_tls_tcp',
  'papertrail',
  'elasticsearch_database',
] as const;
export type StoredLogDrainType = (typeof STORED_LOG_DRAIN_TYPES)[number];

export const LOG_DRAIN_TYPE_LABELS: Record<LogDrainType, string> = {
  https_post: 'HTTPS POST',
  logdna: 'Mezmo (LogDNA)',
  sumologic: 'Sumo Logic',
  datadog: 'Datadog',
  syslog_tls_tcp: 'Syslog (TLS)',
  papertrail: 'Papertrail',
  solarwinds: 'SolarWinds',
  insightops: 'InsightOps',
  elasticsearch_database: 'Elasticsearch database',
};

/** spec 2 §9: InsightOps takes syslog at a fixed host and port. */
export const INSIGHTOPS_HOST = 'data.logs.insight.rapid7.com';
export const INSIGHTOPS_PORT = 20000;

const URL_TYPES: readonly LogDrainType[] = ['datadog', 'sumologic', 'https_post', 'logdna'];
const HOST_TYPES: readonly LogDrainType[] = ['syslog_tls_tcp', 'papertrail', 'solarwinds'];
const PORT_TYPES: readonly LogDrainType[] = ['syslog_tls_tcp', 'papertrail'];
const TOKEN_TYPES: readonly LogDrainType[] = ['insightops', 'solarwinds'];

/** The stored type of what the console offers. */
export function storedLogDrainType(type: LogDrainType): StoredLogDrainType {
  if (URL_TYPES.includes(type)) return 'https_post';
  if (type === 'papertrail' || type === 'elasticsearch_database') return type;
  return 'syslog_tls_tcp';
}

export const logDrainMessages = {
  // spec 2 §5, literal.
  host: 'Must provide a Drain Host',
  url: 'Must provide a URL for log drain',
  https: 'Must begin with https://',
  token: 'Must provide a token for log drain.',
  database: (product: string) => `Must provide an ${product} database`,
  port: endpointMessages.port,
  type: `Drain type must be one of: ${LOG_DRAIN_TYPES.join(', ')}`,
  flag: (label: string) => `${label} must be true or false`,
  hostCharacters: 'Drain Host must be a host name or an IP address, without a protocol or port',
  tokenCharacters: 'The token may not contain spaces or control characters',
  deprovisionFirst: 'Deprovision the log drain before deleting it',
} as const;

const optionalText = (max: number) => z.string().max(max, { abort: true }).optional().nullable();
const flag = (label: string) => z.boolean({ error: logDrainMessages.flag(label) }).optional();

/**
 * POST /accounts/:id/log_drains (contract §5.10). The common fields, then the type's own: a URL for the
 * HTTPS services, a host (and port) for syslog, a token where the service needs one, a database for
 * Elasticsearch. Every string is bounded before any pattern runs.
 */
export const createLogDrainSchema = z
  .looseObject({
    handle: handleSchema,
    drain_type: z.enum(LOG_DRAIN_TYPES, { error: logDrainMessages.type }),
    drain_apps: flag('drain_apps'),
    drain_databases: flag('drain_databases'),
    drain_ephemeral_sessions: flag('drain_ephemeral_sessions'),
    drain_proxies: flag('drain_proxies'),
    url: optionalText(MAX_LENGTH.reference),
    drain_host: optionalText(MAX_LENGTH.domain),
    drain_port: z
      .union([z.string().max(10, { abort: true }), z.number()])
      .optional()
      .nullable(),
    logging_token: optionalText(512),
    database_id: z
      .union([z.string().max(MAX_LENGTH.id, { abort: true }), z.number()])
      .optional()
      .nullable(),
  })
  .superRefine((body, ctx) => {
    const type = body.drain_type;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const url = (body.url ?? '').trim();
    if (URL_TYPES.includes(type)) {
      if (!url) issue('url', logDrainMessages.url);
      else if (!url.startsWith('https://')) issue('url', logDrainMessages.https);
      else if (!URL.canParse(url)) issue('url', logDrainMessages.url);
    }
    const host = (body.drain_host ?? '').trim();
    if (HOST_TYPES.includes(type)) {
      if (!host) issue('drain_host', logDrainMessages.host);
      else if (!/^[A-Za-z0-9.-]+$/.test(host) && !/^\[[0-9A-Fa-f:.]+\]$/.test(host))
        issue('drain_host', logDrainMessages.hostCharacters);
    }
    if (PORT_TYPES.includes(type) && typeof parsePort(body.drain_port) !== 'number')
      issue('drain_port', logDrainMessages.port);
    const token = (body.logging_token ?? '').trim();
    if (TOKEN_TYPES.includes(type) && !token) issue('logging_token', logDrainMessages.token);
    if (token && !/^[^\s\p{Cc}]+$/u.test(token)) issue('logging_token', logDrainMessages.tokenCharacters);
    if (
      type === 'elasticsearch_database' &&
      (body.database_id === undefined || body.database_id === null || body.database_id === '')
    )
      issue('database_id', logDrainMessages.database('Elasticsearch'));
  });
export type CreateLogDrainBody = z.infer<typeof createLogDrainSchema>;

/** spec 2 §9: sources on by default, except endpoint (proxy) logs. */
export const LOG_DRAIN_SOURCE_DEFAULTS = {
  drain_apps: true,
  drain_databases: true,
  drain_ephemeral_sessions: true,
  drain_proxies: false,
} as const;
