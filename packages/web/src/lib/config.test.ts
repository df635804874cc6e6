import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, getRuntimeConfig, loadRuntimeConfig, readInlineRuntimeConfig } from './config.ts';

const CONFIG = {
  appUrl: 'http://berth.test',
  authUrl: 'http://berth.test/auth',
  apiUrl: 'http://berth.test/api',
  billingUrl: 'http://berth.test/billing',
  metricTunnelUrl: 'http://berth.test/metrics',
  mailboxUrl: null,
  docsUrl: null,
  statusPageUrl: null,
  home: true,
  payments: 'local',
  stripePublishableKey: null,
};

function pageWith(text: string | null): Document {
  const doc = document.implementation.createHTMLDocument('Berth');
  if (text !== null) {
    const script = doc.createElement('script');
    script.id = 'berth-config';
    script.type = 'application/json';
    script.textContent = text;
    doc.head.append(script);
  }
  return doc;
}

afterEach(() => {
  document.getElementById('berth-config')?.remove();
});

describe('the payments mode', () => {
  it('is none unless the server names local or stripe', () => {
    expect(
      readInlineRuntimeConfig(pageWith(JSON.stringify({ ...CONFIG, payments: 'paypal' })))?.payments,
    ).toBe('none');
    const stripe = { ...CONFIG, payments: 'stripe', stripePublishableKey: 'pk_test_1' };
    expect(readInlineRuntimeConfig(pageWith(JSON.stringify(stripe)))).toEqual(stripe);
  });
});

describe('the home switch', () => {
  it('is on unless the server turns it off (BERTH_HOME)', () => {
    expect(readInlineRuntimeConfig(pageWith(JSON.stringify({ ...CONFIG, home: false })))?.home).toBe(false);
    const { home: _, ...older } = CONFIG;
    expect(readInlineRuntimeConfig(pageWith(JSON.stringify(older)))?.home).toBe(true);
  });
});

describe('the runtime config', () => {
  it('is read from the page when the server wrote it there', () => {
    expect(readInlineRuntimeConfig(pageWith(JSON.stringify(CONFIG)))).toEqual(CONFIG);
    expect(getRuntimeConfig()).toEqual(CONFIG);
  });

  it('is absent from a page without it, and refused when it is not JSON or incomplete', () => {
    expect(readInlineRuntimeConfig(pageWith(null))).toBeNull();
    expect(() => readInlineRuntimeConfig(pageWith('{not json'))).toThrow(ConfigError);
    expect(() => readInlineRuntimeConfig(pageWith('{"appUrl":"x"}'))).toThrow(
      'config.json is missing authUrl',
    );
  });

  it('starts without a request when the page carries it, and fetches /config.json otherwise', async () => {
    const fetchImpl = vi.fn(
      async () => new Response(JSON.stringify({ ...CONFIG, appUrl: 'http://fetched.test' })),
    );
    document.head.append(pageWith(JSON.stringify(CONFIG)).getElementById('berth-config') as HTMLElement);
    expect((await loadRuntimeConfig(fetchImpl)).appUrl).toBe('http://berth.test');
    expect(fetchImpl).not.toHaveBeenCalled();
    document.getElementById('berth-config')?.remove();
    expect((await loadRuntimeConfig(fetchImpl)).appUrl).toBe('http://fetched.test');
    expect(fetchImpl).toHaveBeenCalledWith('/config.json', { headers: { Accept: 'application/json' } });
  });
});
