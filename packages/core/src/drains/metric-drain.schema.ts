import { z } from 'zod';
import { endpointMessages, parsePort } from '../endpoints/endpoint.schema.ts';
import { handleSchema } from '../environments/environment.schema.ts';
import { MAX_LENGTH } from '../text/limits.ts';

// spec 2 §3 (metric drain), §5 (its messages) and §9 (types, Datadog sites, InfluxDB ports); contract
// §4.3 metric_drain and §5.10.

export const METRIC_DRAIN_TYPES = ['influxdb_database', 'influxdb', 'influxdb2', 'datadog'] as const;
export type MetricDrainType = (typeof METRIC_DRAIN_TYPES)[number];

export const METRIC_DRAIN_TYPE_LABELS: Record<MetricDrainType, string> = {
  influxdb_database: 'InfluxDB database',
  influxdb: 'InfluxDB',
  influxdb2: 'InfluxDB 2',
  datadog: 'Datadog',
};

/** spec 2 §9: Datadog sites and their API base URLs; the series go to /api/v1/series. */
export const DATADOG_SITES = {
  US1: 'https://api.datadoghq.com',
  US3: 'https://api.us3.datadoghq.com',
  US5: 'https://api.us5.datadoghq.com',
  EU1: 'https://api.datadoghq.eu',
  'US1-FED': 'https://api.ddog-gov.com',
} as const;
export type DatadogSite = keyof typeof DATADOG_SITES;
export const DEFAULT_DATADOG_SITE: DatadogSite = 'US1';
export const DATADOG_SERIES_PATH = '/api/v1/series';

export const datadogSeriesUrl = (site: DatadogSite) => `${DATADOG_SITES[site]}${DATADOG_SERIES_PATH}`;

/** spec 2 §9: an InfluxDB port defaults to 80 for http and 443 otherwise. */
export function influxAddress(protocol: 'http' | 'https', hostname: string, port: number | null): string {
  const resolved = port ?? (protocol === 'http' ? 80 : 443);
  return `${protocol}://${hostname}:${resolved}`;
}

export const metricDrainMessages = {
  // spec 2 §5, literal.
  hostname: 'Must provide hostname',
  protocolInHostname: 'Do not include the protocol (e.g. http(s)://)',
  username: 'Must provide username',
  password: 'Must provide password',
  database: 'Must provide a database name',
  organization: 'Must provide an organization name',
  apiToken: 'Must provide an API token',
  bucket: 'Must provide a bucket name',
  influxDatabase: (product: string) => `Must provide an ${product} database`,
  datadogKey: 'Must provide a Datadog API key',
  port: endpointMessages.port,
  type: `Drain type must be one of: ${METRIC_DRAIN_TYPES.join(', ')}`,
  site: `Datadog site must be one of: ${Object.keys(DATADOG_SITES).join(', ')}`,
  seriesUrl: `The Datadog series URL must be one of its sites': ${Object.values(DATADOG_SITES).join(', ')}`,
  deprovisionFirst: 'Deprovision the metric drain before deleting it',
} as const;

const text = (max: number) => z.string().max(max, { abort: true }).optional().nullable();
const filled = (value: string | null | undefined) => (value ?? '').trim() !== '';

/**
 * The Create Metric Drain form's fields (spec 2 §5): a host name, port and protocol for the InfluxDB
 * services with their credentials, an API key and site for Datadog, a database for an InfluxDB database
 * of the environment. `metricDrainBody` turns them into the API's body (contract §5.10).
 */
export const metricDrainFormSchema = z
  .looseObject({
    handle: handleSchema,
    drain_type: z.enum(METRIC_DRAIN_TYPES, { error: metricDrainMessages.type }),
    hostname: text(MAX_LENGTH.domain),
    port: z
      .union([z.string().max(10, { abort: true }), z.number()])
      .optional()
      .nullable(),
    protocol: z.enum(['http', 'https']).optional(),
    username: text(256),
    password: text(256),
    database: text(256),
    org: text(256),
    authToken: text(1024),
    bucket: text(256),
    apiKey: text(256),
    site: z
      .enum(Object.keys(DATADOG_SITES) as [DatadogSite, ...DatadogSite[]], {
        error: metricDrainMessages.site,
      })
      .optional(),
    database_id: z
      .union([z.string().max(MAX_LENGTH.id, { abort: true }), z.number()])
      .optional()
      .nullable(),
  })
  .superRefine((form, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    const type = form.drain_type;
    if (type === 'influxdb' || type === 'influxdb2') {
      const hostname = (form.hostname ?? '').trim();
      if (!hostname) issue('hostname', metricDrainMessages.hostname);
      else if (/^https?:/i.test(hostname)) issue('hostname', metricDrainMessages.protocolInHostname);
      else if (!/^[A-Za-z0-9.-]+$/.test(hostname)) issue('hostname', metricDrainMessages.hostname);
      if (
        form.port !== undefined &&
        form.port !== null &&
        form.port !== '' &&
        typeof parsePort(form.port) !== 'number'
      )
        issue('port', metricDrainMessages.port);
    }
    if (type === 'influxdb') {
      if (!filled(form.username)) issue('username', metricDrainMessages.username);
      if (!filled(form.password)) issue('password', metricDrainMessages.password);
      if (!filled(form.database)) issue('database', metricDrainMessages.database);
    }
    if (type === 'influxdb2') {
      if (!filled(form.org)) issue('org', metricDrainMessages.organization);
      if (!filled(form.authToken)) issue('authToken', metricDrainMessages.apiToken);
      if (!filled(form.bucket)) issue('bucket', metricDrainMessages.bucket);
    }
    if (
      type === 'influxdb_database' &&
      !filled(form.database_id === null || form.database_id === undefined ? '' : String(form.database_id))
    )
      issue('database_id', metricDrainMessages.influxDatabase('InfluxDB'));
    if (type === 'datadog' && !filled(form.apiKey)) issue('apiKey', metricDrainMessages.datadogKey);
  });
export type MetricDrainForm = z.infer<typeof metricDrainFormSchema>;

/** contract §4.3 drain_configuration of each type. */
export type MetricDrainConfiguration =
  | { address: string; username: string; password: string; database: string }
  | { address: string; org: string; authToken: string; bucket: string }
  | { api_key: string; series_url: string }
  | Record<string, never>;

/** The API body (contract §5.10 POST /accounts/:id/metric_drains) of a valid form. */
export function metricDrainBody(form: MetricDrainForm): {
  handle: string;
  drain_type: MetricDrainType;
  drain_configuration?: MetricDrainConfiguration;
  database_id?: string;
} {
  const port = typeof parsePort(form.port) === 'number' ? (parsePort(form.port) as number) : null;
  const address = influxAddress(form.protocol ?? 'https', (form.hostname ?? '').trim(), port);
  switch (form.drain_type) {
    case 'influxdb':
      return {
        handle: form.handle,
        drain_type: 'influxdb',
        drain_configuration: {
          address,
          username: (form.username ?? '').trim(),
          password: form.password ?? '',
          database: (form.database ?? '').trim(),
        },
      };
    case 'influxdb2':
      return {
        handle: form.handle,
        drain_type: 'influxdb2',
        drain_configuration: {
          address,
          org: (form.org ?? '').trim(),
          authToken: (form.authToken ?? '').trim(),
          bucket: (form.bucket ?? '').trim(),
        },
      };
    case 'datadog':
      return {
        handle: form.handle,
        drain_type: 'datadog',
        drain_configuration: {
          api_key: (form.apiKey ?? '').trim(),
          series_url: datadogSeriesUrl(form.site ?? DEFAULT_DATADOG_SITE),
        },
      };
    default:
      return {
        handle: form.handle,
        drain_type: 'influxdb_database',
        database_id: String(form.database_id ?? ''),
      };
  }
}

const configurationText = (max: number) => z.string().max(max, { abort: true }).optional();

/**
 * POST /accounts/:id/metric_drains (contract §5.10): the handle, the type, and its `drain_configuration`
 * (or `database_id` for an InfluxDB database of the environment), checked with the same messages.
 */
export const createMetricDrainSchema = z
  .looseObject({
    handle: handleSchema,
    drain_type: z.enum(METRIC_DRAIN_TYPES, { error: metricDrainMessages.type }),
    drain_configuration: z
      .looseObject({
        address: configurationText(MAX_LENGTH.reference),
        username: configurationText(256),
        password: configurationText(256),
        database: configurationText(256),
        org: configurationText(256),
        authToken: configurationText(1024),
        bucket: configurationText(256),
        api_key: configurationText(256),
        series_url: configurationText(MAX_LENGTH.reference),
      })
      .optional(),
    database_id: z
      .union([z.string().max(MAX_LENGTH.id, { abort: true }), z.number()])
      .optional()
      .nullable(),
  })
  .superRefine((body, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: ['drain_configuration', path], message });
    const configuration = body.drain_configuration ?? {};
    const type = body.drain_type;
    if (type === 'influxdb' || type === 'influxdb2') {
      const address = configuration.address ?? '';
      // Only where it is: a scheme, a host and a port (credentials go in their own fields, never in a
      // URL that would be shown).
      const parsed = /^https?:\/\//.test(address) && URL.canParse(address) ? new URL(address) : null;
      if (
        !parsed ||
        parsed.username ||
        parsed.password ||
        parsed.search ||
        parsed.hash ||
        parsed.pathname !== '/'
      )
        issue('address', metricDrainMessages.hostname);
    }
    if (type === 'influxdb') {
      if (!filled(configuration.username)) issue('username', metricDrainMessages.username);
      if (!filled(configuration.password)) issue('password', metricDrainMessages.password);
      if (!filled(configuration.database)) issue('database', metricDrainMessages.database);
    }
    if (type === 'influxdb2') {
      if (!filled(configuration.org)) issue('org', metricDrainMessages.organization);
      if (!filled(configuration.authToken)) issue('authToken', metricDrainMessages.apiToken);
      if (!filled(configuration.bucket)) issue('bucket', metricDrainMessages.bucket);
    }
    if (type === 'datadog') {
      if (!filled(configuration.api_key)) issue('api_key', metricDrainMessages.datadogKey);
      // One of Datadog's sites (spec 2 §9): the series go nowhere else.
      const sites = (Object.keys(DATADOG_SITES) as DatadogSite[]).map(datadogSeriesUrl);
      if (!sites.includes(configuration.series_url ?? '')) issue('series_url', metricDrainMessages.seriesUrl);
    }
    if (
      type === 'influxdb_database' &&
      (body.database_id === undefined || body.database_id === null || body.database_id === '')
    )
      ctx.addIssue({
        code: 'custom',
        path: ['database_id'],
        message: metricDrainMessages.influxDatabase('InfluxDB'),
      });
  });
export type CreateMetricDrainBody = z.infer<typeof createMetricDrainSchema>;
