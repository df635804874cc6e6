import { describe, expect, it } from 'vitest';
import {
  datadogSeriesUrl,
  metricDrainBody,
  metricDrainFormSchema,
  metricDrainMessages,
} from './metric-drain.schema.ts';

function problems(form: Record<string, unknown>): Record<string, string[]> {
  const result = metricDrainFormSchema.safeParse({ handle: 'metrics', ...form });
  const found: Record<string, string[]> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const key = String(issue.path[0] ?? '');
    found[key] = [...(found[key] ?? []), issue.message];
  }
  return found;
}

describe('metric drain form (spec 2 §5)', () => {
  it('needs a host name without its protocol for InfluxDB and InfluxDB 2, and a valid port', () => {
    expect(problems({ drain_type: 'influxdb' }).hostname).toEqual(['Must provide hostname']);
    expect(problems({ drain_type: 'influxdb2', hostname: 'https://influx.example.com' }).hostname).toEqual([
      'Do not include the protocol (e.g. http(s)://)',
    ]);
    expect(problems({ drain_type: 'influxdb2', hostname: 'influx.example.com', port: '99999' }).port).toEqual(
      ['Port must be a number between 1 and 65535'],
    );
  });

  it('needs the credentials of each InfluxDB', () => {
    expect(problems({ drain_type: 'influxdb', hostname: 'influx.example.com' })).toEqual({
      username: ['Must provide username'],
      password: ['Must provide password'],
      database: ['Must provide a database name'],
    });
    expect(problems({ drain_type: 'influxdb2', hostname: 'influx.example.com' })).toEqual({
      org: ['Must provide an organization name'],
      authToken: ['Must provide an API token'],
      bucket: ['Must provide a bucket name'],
    });
    expect(problems({ drain_type: 'influxdb_database' }).database_id).toEqual([
      'Must provide an InfluxDB database',
    ]);
    expect(problems({ drain_type: 'datadog' }).apiKey).toEqual([metricDrainMessages.datadogKey]);
    expect(metricDrainMessages.datadogKey).toBe('Must provide a Datadog API key');
  });

  it('builds the API body: the address with the protocol default port, the Datadog site series URL', () => {
    const influx = metricDrainFormSchema.parse({
      handle: 'influx',
      drain_type: 'influxdb',
      hostname: 'influx.example.com',
      protocol: 'http',
      username: 'berth',
      password: 'secret',
      database: 'metrics',
    });
    expect(metricDrainBody(influx)).toEqual({
      handle: 'influx',
      drain_type: 'influxdb',
      drain_configuration: {
        address: 'http://influx.example.com:80',
        username: 'berth',
        password: 'secret',
        database: 'metrics',
      },
    });
    const datadog = metricDrainFormSchema.parse({
      handle: 'dd',
      drain_type: 'datadog',
      apiKey: 'key',
      site: 'EU1',
    });
    expect(metricDrainBody(datadog)).toEqual({
      handle: 'dd',
      drain_type: 'datadog',
      drain_configuration: { api_key: 'key', series_url: 'https://api.datadoghq.eu/api/v1/series' },
    });
    expect(datadogSeriesUrl('US1-FED')).toBe('https://api.ddog-gov.com/api/v1/series');
  });
});
