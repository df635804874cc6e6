import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

// A browser's Accept when it opens a page, and what the console's fetch calls send.
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const FAMILY_PATHS = [
  '/billing',
  '/billing/plan',
  '/api/nothing-here',
  '/auth/nothing-here',
  '/metrics/nothing',
];

let built: TestApp;
let bare: TestApp;
const webDist = consoleBuild({
  'index.html':
    '<!doctype html><html><head><title>Berth</title></head><body><div id="root"></div></body></html>',
  'route-preloads.json': JSON.stringify([
    { pattern: '/login', session: false, files: ['/assets/login-1.js'] },
    { pattern: '/apps', session: true, files: ['/assets/shell-2.js', '/assets/apps-3.js'] },
  ]),
});
beforeAll(async () => {
  built = await testApp({ webDist });
  bare = await testApp({ webDist: path.join(webDist, 'missing') });
});
afterAll(async () => {
  await built.close();
  await bare.close();
});

const get = (t: TestApp, url: string, accept?: string) =>
  t.app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });

describe('the console page of a signed-in browser', () => {
  const preloads = async (cookie?: string) => {
    const page = await built.app.inject({
      method: 'GET',
      url: '/apps',
      headers: { accept: BROWSER, ...(cookie ? { cookie } : {}) },
    });
    return [...page.body.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
  };

  it('names the signed-in page’s code when the browser logged in here, and the login page’s otherwise', async () => {
    expect(await preloads()).toEqual(['/assets/login-1.js']);
    const user = await built.signUp();
    const login = await built.login(user.email, user.password);
    // The session cookie itself goes only to /auth: the page request carries the hint set beside it.
    const hint = login.cookies.find((c) => c.name === 'berth_signed_in');
    expect(hint?.path).toBe('/');
    expect(await preloads(`berth_signed_in=${hint?.value}`)).toEqual([
      '/assets/shell-2.js',
      '/assets/apps-3.js',
    ]);
  });
});

describe('browser navigations under a service family prefix (console routes such as /billing)', () => {
  it.each(FAMILY_PATHS)('opens the console for %s in a browser', async (url) => {
    const page = await get(built, url, BROWSER);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toContain('<div id="root">');
  });

  it.each([
    ['no Accept', undefined],
    ['any type', '*/*'],
    ['JSON', 'application/json'],
    ['HAL', 'application/hal+json'],
    ['HTML and JSON', 'text/html, application/json'],
  ])('keeps the family’s JSON 404 for API calls (%s)', async (_name, accept) => {
    for (const url of FAMILY_PATHS) {
      const response = await get(built, url, accept);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
      expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
    }
  });

  it('keeps the JSON 404 for other methods, and answers known routes as before', async () => {
    const post = await built.app.inject({
      method: 'POST',
      url: '/billing/plan',
      headers: { accept: BROWSER },
    });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ error: 'not_found' });
    const stacks = await get(built, '/api/stacks', BROWSER);
    expect(stacks.statusCode).toBe(401);
  });

  it('answers the JSON 404 to browsers too while the console is not built', async () => {
    const response = await get(bare, '/billing', BROWSER);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
  });
});
