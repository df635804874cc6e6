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
  /** BERTH_HOME (issue 38): whether members land on the home dashboard; on unless the server says off. */
  home: boolean;
  /** BERTH_PAYMENTS (issue 37): `none` needs no card; `local` takes test tokens; `stripe` uses Stripe.js. */
  payments: PaymentsMode;
  /** With `stripe`: the publishable key Stripe.js is started with. */
  stripePublishableKey: string | null;
}

export type PaymentsMode = 'none' | 'local' | 'stripe';

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
    home: source.home !== false,
    payments: source.payments === 'local' || source.payments === 'stripe' ? source.payments : 'none',
    stripePublishableKey: readOptional('stripePublishableKey'),
  };
}

let current: RuntimeConfig | null = null;

/** Where the server writes the config into index.html (packages/server/src/http/console-navigation.ts). */
export const INLINE_CONFIG_ID = 'berth-config';

/**
 * The config the server wrote into the page, so the console starts without a round trip; null when the
 * page has none (the Vite dev server's index.html), and then it is fetched.
 */
export function readInlineRuntimeConfig(doc: Document = document): RuntimeConfig | null {
  const text = doc.getElementById(INLINE_CONFIG_ID)?.textContent;
  if (!text) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ConfigError('The page carries a runtime config that is not JSON');
  }
  current = parseRuntimeConfig(raw);
  return current;
}

export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const inline = readInlineRuntimeConfig();
  if (inline) return inline;
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
