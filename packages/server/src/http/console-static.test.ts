import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { consoleDocument } from './console-navigation.ts';
import { consoleIndexIn, consoleStatic } from './console-static.ts';

const INDEX =
  '<!doctype html><html><head><title>Berth</title></head><body><div id="root"></div></body></html>';
/** A value no inline data block may end on: the config is written with `<` escaped. */
const CONFIG = {
  appUrl: 'http://berth.test',
  docsUrl: 'http://docs.test/</script><script>alert(1)</script>',
};
const WITH_CONFIG =
  '<!doctype html><html><head><title>Berth</title>' +
  '<script id="berth-config" type="application/json">' +
  '{"appUrl":"http://berth.test","docsUrl":"http://docs.test/\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}' +
  '</script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log(1)';

const webDist = consoleBuild(
  {
    'index.html': INDEX,
    'favicon.svg': '<svg/>',
    // Nothing the build writes, and never served.
    '.env': 'SECRET=1',
    'assets/.hidden.js': 'secret()',
    'assets/app-abc123.js': SCRIPT,
    // What the build's precompress step writes beside each text file.
    'assets/app-abc123.js.br': 'brotli bytes',
    'assets/app-abc123.js.gz': 'gzip bytes',
    // The build's route table (packages/web/build/route-preloads.ts).
    'route-preloads.json': JSON.stringify([
      { pattern: '/login', session: false, files: ['/assets/login-5.js'] },
      { pattern: '/apps', session: true, files: ['/assets/shell-1.js', '/assets/apps-2.js'] },
      { pattern: '/apps/:id/:tab?', session: true, files: ['/assets/shell-1.js', '/assets/app-3.js'] },
      { pattern: '*', files: ['/assets/not-found-4.js', '/assets/"><script>x</script>'] },
    ]),
  },
  'berth-static-',
);
let built: FastifyInstance;
let bare: FastifyInstance;

async function build(root: string) {
  const app = Fastify();
  app.get('/config.json', async () => ({ ok: true }));
  const index = consoleIndexIn(root);
  // A session is a `berth_session` cookie, as the server reads it.
  const document = index
    ? consoleDocument(
        index,
        () => CONFIG,
        (request) => /berth_session=/.test(request.headers.cookie ?? ''),
      )
    : null;
  await app.register(consoleStatic, { webDist: root, consoleDocument: document });
  return app;
}

beforeAll(async () => {
  built = await build(webDist);
  bare = await build(path.join(webDist, 'missing'));
});
afterAll(async () => {
  await built.close();
  await bare.close();
});

describe('the static console', () => {
  it('finds index.html only where the console is built', () => {
    expect(consoleIndexIn(webDist)).toBe(path.join(webDist, 'index.html'));
    expect(consoleIndexIn(path.join(webDist, 'missing'))).toBeNull();
  });

  it('caches fingerprinted assets for a year, and other files not', async () => {
    const asset = await built.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await built.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toContain('immutable');
  });

  it('names the code of the page opened for preloading, from the build route table', async () => {
    const preloads = async (url: string, cookie = 'berth_session=abc') => {
      const page = await built.inject({ method: 'GET', url, headers: { cookie } });
      return [...page.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
        (match) => match[1],
      );
    };
    expect(await preloads('/apps')).toEqual(['/assets/shell-1.js', '/assets/apps-2.js']);
    expect(await preloads('/apps?search=web')).toEqual(['/assets/shell-1.js', '/assets/apps-2.js']);
    expect(await preloads('/apps/42')).toEqual(['/assets/shell-1.js', '/assets/app-3.js']);
    expect(await preloads('/apps/42/services')).toEqual(['/assets/shell-1.js', '/assets/app-3.js']);
    // Anything else is the not-found page; a name that is not a plain path is never written.
    expect(await preloads('/nowhere/at/all')).toEqual(['/assets/not-found-4.js']);
    // Signed out, a page behind the session guard turns into the login page: that is the code to fetch.
    expect(await preloads('/apps/42', '')).toEqual(['/assets/login-5.js']);
    expect(await preloads('/login', '')).toEqual(['/assets/login-5.js']);
    expect(await preloads('/nowhere/at/all', '')).toEqual(['/assets/not-found-4.js']);
    const page = await built.inject({ method: 'GET', url: '/apps' });
    expect(page.body.indexOf('modulepreload')).toBeLessThan(page.body.indexOf('</head>'));
  });

  it('sends the precompressed copy the browser accepts, brotli first, and says it varies', async () => {
    const asset = (acceptEncoding?: string) =>
      built.inject({
        method: 'GET',
        url: '/assets/app-abc123.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const br = await asset('gzip, deflate, br, zstd');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body).toBe('brotli bytes');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body).toBe('gzip bytes');
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers a file the browser already holds with 304, per encoding, and types what it sends', async () => {
    const first = await built.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(first.headers['content-type']).toBe('text/javascript; charset=utf-8');
    const etag = String(first.headers.etag);
    const again = await built.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The uncompressed copy is another variant, with a tag of its own.
    const plain = await built.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'if-none-match': etag },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);
    const icon = await built.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
    // The router decodes the path, as for every route.
    expect((await built.inject({ method: 'GET', url: '/assets/app-abc12%33.js' })).body).toBe(SCRIPT);
    expect((await built.inject({ method: 'HEAD', url: '/assets/app-abc123.js' })).statusCode).toBe(200);
  });

  it('answers code it does not have with a 404, never the page, and the page never as a raw file', async () => {
    for (const url of ['/assets/gone-123.js', '/assets/app-abc123.js.br', '/assets/.hidden.js']) {
      const response = await built.inject({ method: 'GET', url, headers: { accept: '*/*' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
    }
    // A dotfile is a console route like any other path: the page, never the file.
    for (const url of ['/index.html', '/route-preloads.json', '/.env']) {
      const response = await built.inject({ method: 'GET', url });
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('id="berth-config"');
      expect(response.body).not.toContain('SECRET');
    }
  });

  it.each(['GET', 'HEAD'] as const)(
    'answers index.html, never cached, to %s of a console route',
    async (method) => {
      for (const url of ['/', '/apps/42', '/environments/1/apps?page=2']) {
        const page = await built.inject({ method, url });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['cache-control']).toBe('no-cache');
        // The route's preloads aside (tested below), the page is index.html with the config in it.
        if (method === 'GET')
          expect(page.body.replace(/<link rel="modulepreload"[^>]*>/g, '')).toBe(WITH_CONFIG);
      }
    },
  );

  it('keeps the other routes, and answers other methods on unknown paths with a JSON 404', async () => {
    expect((await built.inject({ method: 'GET', url: '/config.json' })).json()).toEqual({ ok: true });
    const post = await built.inject({ method: 'POST', url: '/apps/42' });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    expect(post.json()).toEqual({
      code: 404,
      error: 'not_found',
      message: 'No route matches this POST request',
      exception_context: {},
    });
  });

  it('answers each file once: no "Reply was already sent" warning, and the access log says what the browser got', async () => {
    // Issue 35: a served file went on to the 404 handler, which warned and logged the answer as a 404.
    const lines: { level: number; msg: string; res?: { statusCode: number } }[] = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line)) };
    const app = Fastify({ logger: { level: 'info', stream } });
    const index = consoleIndexIn(webDist) as string;
    const document = consoleDocument(
      index,
      () => CONFIG,
      () => false,
    );
    await app.register(consoleStatic, { webDist, consoleDocument: document });
    try {
      const answers = await Promise.all(
        ['/assets/app-abc123.js', '/favicon.svg', '/assets/app-abc123.js'].map((url, position) =>
          app.inject({ method: 'GET', url, headers: position === 2 ? { 'accept-encoding': 'br' } : {} }),
        ),
      );
      const etag = String(answers[0]?.headers.etag);
      answers.push(
        await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'if-none-match': etag } }),
        await app.inject({ method: 'GET', url: '/assets/nothing.js' }),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 304, 404]);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      const logged = lines.filter((line) => line.msg === 'request completed');
      expect(logged.map((line) => line.res?.statusCode)).toEqual([200, 200, 200, 304, 404]);
    } finally {
      await app.close();
    }
  });

  it('serves nothing while the console is not built: every unknown path is a JSON 404', async () => {
    for (const url of ['/', '/apps/42', '/assets/app-abc123.js']) {
      const response = await bare.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
    }
  });
});
