import { describe, expect, it } from 'vitest';
import { createLogDrainSchema, logDrainMessages, storedLogDrainType } from './log-drain.schema.ts';

/** The messages a body gets, by field. */
function problems(body: Record<string, unknown>): Record<string, string[]> {
  const result = createLogDrainSchema.safeParse({ handle: 'logs', ...body });
  const found: Record<string, string[]> = {};
  for (const issue of result.success ? [] : result.error.issues) {
    const key = String(issue.path[0] ?? '');
    found[key] = [...(found[key] ?? []), issue.message];
  }
  return found;
}

describe('log drain create body (spec 2 §5)', () => {
  it('needs a URL beginning with https:// for the HTTPS services', () => {
    for (const drain_type of ['datadog', 'sumologic', 'https_post', 'logdna']) {
      expect(problems({ drain_type }).url).toEqual(['Must provide a URL for log drain']);
      expect(problems({ drain_type, url: 'http://logs.example.com' }).url).toEqual([
        'Must begin with https://',
      ]);
      expect(problems({ drain_type, url: 'https://logs.example.com/in' })).toEqual({});
    }
  });

  it('needs a host for syslog, Papertrail and SolarWinds, and a valid port for syslog and Papertrail', () => {
    for (const drain_type of ['syslog_tls_tcp', 'papertrail', 'solarwinds']) {
      expect(problems({ drain_type, logging_token: 't' }).drain_host).toEqual([logDrainMessages.host]);
      expect(logDrainMessages.host).toBe('Must provide a Drain Host');
    }
    for (const drain_type of ['syslog_tls_tcp', 'papertrail']) {
      expect(problems({ drain_type, drain_host: 'logs.example.com' }).drain_port).toEqual([
        'Port must be a number between 1 and 65535',
      ]);
      expect(
        problems({ drain_type, drain_host: 'logs.example.com', drain_port: '70000' }).drain_port,
      ).toEqual(['Port must be a number between 1 and 65535']);
      expect(problems({ drain_type, drain_host: 'logs.example.com', drain_port: 6514 })).toEqual({});
    }
    expect(
      problems({ drain_type: 'syslog_tls_tcp', drain_host: 'https://x', drain_port: '1' }).drain_host,
    ).toEqual([logDrainMessages.hostCharacters]);
  });

  it('needs a token for InsightOps and SolarWinds', () => {
    expect(problems({ drain_type: 'insightops' }).logging_token).toEqual([
      'Must provide a token for log drain.',
    ]);
    expect(problems({ drain_type: 'solarwinds', drain_host: 'syslog.example.com' }).logging_token).toEqual([
      'Must provide a token for log drain.',
    ]);
    expect(problems({ drain_type: 'insightops', logging_token: 'has space' }).logging_token).toEqual([
      logDrainMessages.tokenCharacters,
    ]);
  });

  it('needs a database for Elasticsearch', () => {
    expect(problems({ drain_type: 'elasticsearch_database' }).database_id).toEqual([
      'Must provide an Elasticsearch database',
    ]);
    expect(problems({ drain_type: 'elasticsearch_database', database_id: '12' })).toEqual({});
  });

  it('refuses an unknown type and bounds every string before its pattern', () => {
    expect(problems({ drain_type: 'ftp' }).drain_type).toEqual([logDrainMessages.type]);
    const long = problems({ drain_type: 'https_post', url: `https://${'a'.repeat(100_000)}` });
    expect(long.url?.[0]).toMatch(/at most|too big|Too big/i);
  });

  it('stores the HTTPS services as https_post and the syslog ones as syslog_tls_tcp', () => {
    expect(storedLogDrainType('datadog')).toBe('https_post');
    expect(storedLogDrainType('logdna')).toBe('https_post');
    expect(storedLogDrainType('insightops')).toBe('syslog_tls_tcp');
    expect(storedLogDrainType('solarwinds')).toBe('syslog_tls_tcp');
    expect(storedLogDrainType('papertrail')).toBe('papertrail');
    expect(storedLogDrainType('elasticsearch_database')).toBe('elasticsearch_database');
  });
});
