import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

let t: TestApp;
const webDist = consoleBuild({
  'index.html': '<!doctype html><title>Berth</title><div id="root"></div>',
  'assets/app-abc123.js': 'console.log(1)',
});
beforeAll(async () => {
  t = await testApp({
    webDist,
    corsOrigins: ['http://console.example'],
    docsUrl: 'https://docs.berth.example',
  });
});
afterAll(async () => {
  await t.close();
});

describe('wire conventions (contract §1)', () => {
  it('parses application/hal+json bodies and tolerates empty bodies on DELETE and GET', async () => {
    const user = await t.signUp();
    const get = await t.call('GET', `/auth/users/${user.id}`, { token: user.token });
    expect(get.statusCode).toBe(200);
    expect(get.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    const del = await t.call('DELETE', `/auth/tokens/${user.tokenId}`, { token: user.token });
    expect(del.statusCode).toBe(204);
  });

  it('answers malformed JSON with a 400 error body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/users',
      headers: { 'content-type': 'application/hal+json' },
      payload: '{nope',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      code: 400,
      error: 'bad_request',
      message: 'Request body is not valid JSON',
      exception_context: {},
    });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await t.call('GET', '/api/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
  });

  it('echoes an allowed origin with credentials, on errors and preflights too', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/stacks',
      headers: { origin: 'http://console.example', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://console.example');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const error = await t.call('GET', '/api/stacks', { headers: { origin: 'http://console.example' } });
    expect(error.statusCode).toBe(401);
    expect(error.headers['access-control-allow-origin']).toBe('http://console.example');
    // A 429's wait is readable from that origin.
    expect(error.headers['access-control-expose-headers']).toBe('Retry-After');
    const stranger = await t.call('GET', '/api/stacks', { headers: { origin: 'http://evil.example' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('console, runtime config and mailbox', () => {
  it('serves the runtime config with every family base URL', async () => {
    const response = await t.call('GET', '/config.json');
    expect(response.json()).toEqual({
      appUrl: 'http://berth.test',
      authUrl: 'http://berth.test/auth',
      apiUrl: 'http://berth.test/api',
      billingUrl: 'http://berth.test/billing',
      metricTunnelUrl: 'http://berth.test/metrics',
      mailboxUrl: 'http://berth.test/dev/mail',
      docsUrl: 'https://docs.berth.example',
      home: true,
      statusPageUrl: null,
      payments: 'none',
      stripePublishableKey: null,
    });
  });

  it('serves index.html for console routes and fingerprinted assets with long caching', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/verify/abc/def' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('shows sent mail on the mailbox page and as JSON', async () => {
    const user = await t.signUp({ verified: false, name: 'Mail Reader' });
    const headers = { cookie: `berth_mailbox=${t.mailboxSecret}` };
    const page = await t.app.inject({ method: 'GET', url: '/dev/mail', headers });
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Verify your email for Berth');
    expect(page.body).toContain(user.email);
    const json = (await t.app.inject({ method: 'GET', url: '/dev/mail.json', headers })).json();
    expect(json.messages[0]).toMatchObject({ to: user.email, subject: 'Verify your email for Berth' });
  });
});

describe('input PostgreSQL cannot store', () => {
  it('refuses NUL characters in bodies and URLs with 400, and clamps absurd page numbers', async () => {
    const user = await t.signUp();
    const body = await t.call('PATCH', `/auth/users/${user.id}`, {
      token: user.token,
      body: { name: 'a\u0000b' },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json().message).toBe('Request body must not contain NUL characters');
    const query = await t.call('GET', '/api/apps?search=a%00b', { token: user.token });
    expect(query.statusCode).toBe(400);
    const far = await t.call('GET', '/api/apps?page=99999999999999999999', { token: user.token });
    expect(far.statusCode).toBe(200);
    expect(far.json()).toMatchObject({ current_page: 1_000_000, total_count: 0 });
  });

  it('serves the mailbox to this machine only', async () => {
    const headers = { cookie: `berth_mailbox=${t.mailboxSecret}` };
    const remote = await t.app.inject({
      method: 'GET',
      url: '/dev/mail.json',
      remoteAddress: '203.0.113.9',
      headers,
    });
    expect(remote.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/dev/mail.json', headers })).statusCode).toBe(200);
  });
});
