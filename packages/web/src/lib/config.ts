// The console learns where each service family lives from the runtime config the server serves
// (design.md "Configuration"), so one build runs behind any host.

export interface RuntimeConfig {
  authUrl: string;
  apiUrl: string;
  billingUrl: string;
  metricTunnelUrl: string;
  appUrl: string;
  /** Local outbox viewer (embedded mail); null when real mail is configured. */
  mailboxUrl: string | null;
  /** Optional outside services: off when the server does not announce them. */
  docsUrl: string | null;
  statusPageUrl: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function parseRuntimeConfig(raw: unknown): RuntimeConfig {
  if (!raw || typeof raw !== 'object') throw new ConfigError('config.json is not an object');
  const source = raw as Record<string, unknown>;
  const read = (key: string): string => {
    const value = source[key];
    if (typeof value !== 'string' || value === '') throw new ConfigError(`config.json is missing ${key}`);
    return trimSlash(value);
  };
  const readOptional = (key: string): string | null => {
    const value = source[key];
    return typeof value === 'string' && value !== '' ? trimSlash(value) : null;
  };
  return {
    authUrl: read('authUrl'),
    apiUrl: read('apiUrl'),
    billingUrl: read('billingUrl'),
    metricTunnelUrl: read('metricTunnelUrl'),
    appUrl: read('appUrl'),
    mailboxUrl: readOptional('mailboxUrl'),
    docsUrl: readOptional('docsUrl'),
    statusPageUrl: readOptional('statusPageUrl'),
  };
}

let current: RuntimeConfig | null = null;

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new ConfigError(`config.json answered ${response.status}`);
  current = parseRuntimeConfig(await response.json());
  return current;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new ConfigError('Runtime config has not been loaded');
  return current;
}
