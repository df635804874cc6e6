import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { COMPRESSION_THRESHOLD_BYTES } from './compression.ts';

// A console page large enough to be worth compressing once the runtime config is written into it.
const INDEX = `<!doctype html><html><head><title>Berth</title>${'<meta name="x" content="padding">'.repeat(60)}</head><body><div id="root"></div></body></html>`;

let t: TestApp;
const webDist = consoleBuild({ 'index.html': INDEX }, 'berth-compress-');
beforeAll(async () => {
  t = await testApp({ webDist });
});
afterAll(async () => {
  await t.close();
});

const BROWSER = 'gzip, deflate, br, zstd';

describe('compressed answers (issue 11)', () => {
  it('sends a large API answer in brotli when the client accepts it, else gzip, else as it is', async () => {
    const user = await t.signUp();
    // The OpenAPI document is a large JSON answer anyone may read.
    const plain = await t.call('GET', '/api/openapi.json');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);

    const br = await t.call('GET', '/api/openapi.json', { headers: { 'accept-encoding': BROWSER } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gz = await t.call('GET', '/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);

    // HAL answers of a signed-in caller too; a small answer goes as it is.
    const me = await t.call('GET', `/auth/users/${user.id}`, {
      token: user.token,
      headers: { 'accept-encoding': BROWSER },
    });
    expect(me.statusCode).toBe(200);
    expect(me.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(me.headers['content-encoding']).toBeUndefined();
    expect(me.json()).toMatchObject({ id: user.id });
  });

  it('compresses the console page, runtime config included, for every console route', async () => {
    for (const url of ['/login', '/apps/42', '/billing/plan']) {
      const page = await t.app.inject({
        method: 'GET',
        url,
        headers: { accept: 'text/html', 'accept-encoding': BROWSER },
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-encoding']).toBe('br');
      const html = brotliDecompressSync(page.rawPayload).toString();
      expect(html).toContain(
        '<script id="berth-config" type="application/json">{"appUrl":"http://berth.test"',
      );
      expect(html).toContain('<div id="root"></div>');
    }
  });

  it('never inflates a compressed request body: it is refused, not expanded', async () => {
    const body = gzipSync(JSON.stringify({ name: 'Zip', email: 'zip@example.com', password: 'x' }));
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/users',
      headers: { 'content-type': 'application/hal+json', 'content-encoding': 'gzip' },
      payload: body,
    });
    expect(response.statusCode).toBe(400);
  });
});
