import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { consoleDirectives } from './security-headers.ts';

let t: TestApp;
const webDist = consoleBuild(
  {
    'index.html': '<!doctype html><title>Berth</title><div id="root"></div>',
    'assets/app-abc123.js': 'console.log(1)',
  },
  'berth-security-',
);
beforeAll(async () => {
  t = await testApp({ webDist, corsOrigins: ['http://console.example'] });
});
afterAll(async () => {
  await t.close();
});

/** The directives of a Content-Security-Policy header, by name. */
function directives(response: LightMyRequestResponse): Map<string, string[]> {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

function expectSecurityHeaders(response: LightMyRequestResponse) {
  expect(response.headers['x-frame-options']).toBe('DENY');
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  const csp = directives(response);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(String(response.headers['content-security-policy'])).not.toContain('unsafe');
}

describe('security headers on every answer', () => {
  it('on the console’s pages and files', async () => {
    for (const url of ['/', '/verify/abc/def', '/assets/app-abc123.js']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expectSecurityHeaders(response);
    }
  });

  it('lets the page start a worker from its own files or a blob its scripts made, and nothing else', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(directives(response).get('worker-src')).toEqual(["'self'", 'blob:']);
  });

  it('lets the console fetch the service families of /config.json', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(directives(response).get('connect-src')).toEqual(["'self'", 'http://berth.test']);
  });

  it('lets the console frame the invoice portal, and load Stripe.js only when payments go through Stripe', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/' });
    expect(directives(response).get('frame-src')).toEqual(["'self'", 'http://berth.test']);
    expect(String(response.headers['content-security-policy'])).not.toContain('stripe');
    const stripe = consoleDirectives('https://berth.example', [], { stripe: true });
    expect(stripe['script-src']).toEqual(["'self'", 'https://js.stripe.com']);
    expect(stripe['frame-src']).toEqual([
      "'self'",
      'https://berth.example',
      'https://js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    expect(stripe['connect-src']).toEqual(["'self'", 'https://berth.example', 'https://api.stripe.com']);
  });

  it('on /config.json and every family’s JSON, success or failure', async () => {
    const user = await t.signUp();
    const answers = [
      await t.app.inject({ method: 'GET', url: '/config.json' }),
      await t.call('GET', `/auth/users/${user.id}`, { token: user.token }),
      await t.call('GET', '/api/accounts', { token: user.token }),
      await t.call('GET', '/api/accounts'),
      await t.call('GET', '/metrics/nothing-here'),
      await t.call('GET', '/billing/nothing-here'),
      await t.call('POST', '/auth/users', { body: { name: '' } }),
      await t.app.inject({ method: 'POST', url: '/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/dev/nothing-here' }),
      await t.app.inject({ method: 'GET', url: '/auth/openapi.json' }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 401, 404, 404, 422, 404, 404, 200]);
    for (const answer of answers) expectSecurityHeaders(answer);
  });

  it('on answers the router refuses, and on CORS preflights', async () => {
    const tooLong = await t.app.inject({ method: 'GET', url: `/api/apps/${'1'.repeat(5000)}` });
    expect(tooLong.statusCode).toBe(414);
    expectSecurityHeaders(tooLong);
    const badUrl = await t.app.inject({ method: 'GET', url: '/api/apps/%E0%A4%A' });
    expect(badUrl.statusCode).toBe(400);
    expectSecurityHeaders(badUrl);
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/accounts',
      headers: { origin: 'http://console.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expectSecurityHeaders(preflight);
  });

  it('the mailbox page allows its own stylesheet, by hash, and nothing else', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/dev/mail',
      headers: { cookie: `berth_mailbox=${t.mailboxSecret}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    const csp = directives(page);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('style-src')).toEqual([expect.stringMatching(/^'sha256-[A-Za-z0-9+/]+=*'$/)]);
    expect(String(page.headers['content-security-policy'])).not.toContain('unsafe');
  });
});

describe("the page's own scripts", () => {
  const THEME = "// the theme\ndocument.documentElement.dataset.theme = 'dark';";
  const EARLY = "fetch('/auth/current_token');";
  const inlineDist = consoleBuild(
    {
      'index.html':
        '<!doctype html><head><script src="/theme.js"></script><script src="/early.js"></script>' +
        '<script src="/closing.js"></script><script src="/missing.js"></script>' +
        '<link rel="stylesheet" href="/assets/a.css"></head><body><div id="root"></div></body>',
      // Written with Windows line breaks: the browser hashes the text as parsed, with line feeds.
      'theme.js': THEME.replace('\n', '\r\n'),
      'closing.js': "document.write('</script>')",
      'early.js': EARLY,
    },
    'berth-inline-',
  );
  let inline: TestApp;
  beforeAll(async () => {
    inline = await testApp({ webDist: inlineDist });
  });
  afterAll(async () => {
    await inline.close();
  });

  it('carries a classic script inline, allowed by its hash alone, and keeps one that could end the element a file', async () => {
    const page = await inline.app.inject({ method: 'GET', url: '/apps' });
    expect(page.body).toContain(`<script>${THEME}</script>`);
    expect(page.body).toContain('<script src="/closing.js"></script>');
    expect(page.body).toContain('<script src="/missing.js"></script>');
    const hash = createHash('sha256').update(THEME).digest('base64');
    const early = createHash('sha256').update(EARLY).digest('base64');
    const allowed = ["'self'", `'sha256-${hash}'`, `'sha256-${early}'`];
    expect(directives(page).get('script-src')).toEqual(allowed);
    // The same policy on every answer, JSON included.
    const json = await inline.app.inject({ method: 'GET', url: '/config.json' });
    expect(directives(json).get('script-src')).toEqual(allowed);
    expect(String(page.headers['content-security-policy'])).not.toContain('unsafe');
  });

  it("writes the runtime config before the head's first script, so the start script that reads it runs before the stylesheets", async () => {
    const page = await inline.app.inject({ method: 'GET', url: '/apps' });
    const config = page.body.indexOf('<script id="berth-config" type="application/json">');
    expect(config).toBe(page.body.indexOf('<head>') + '<head>'.length);
    expect(page.body.indexOf(`<script>${THEME}</script>`)).toBeGreaterThan(config);
    const early = page.body.indexOf(`<script>${EARLY}</script>`);
    expect(early).toBeGreaterThan(config);
    expect(page.body.indexOf('<link rel="stylesheet"')).toBeGreaterThan(early);
  });
});
