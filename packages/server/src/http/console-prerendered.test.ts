import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { consoleDocument, fillPrerendered, NEEDS_JAVASCRIPT } from './console-navigation.ts';
import {
  consoleIndexIn,
  consoleStatic,
  readPostedSignIn,
  SIGN_IN_FORM_BODY_LIMIT,
} from './console-static.ts';

// Issue 40: the build's prerendered sign-in pages (packages/web/build/prerender.ts) in the page the
// server sends, and the plain post they make when the console's code has not run.

const INDEX =
  '<!doctype html><html><head><title>Berth</title><script src="/theme.js"></script></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/index-1.js"></script></body></html>';
/** As react-dom/server writes the login form: no value attribute on the uncontrolled inputs. */
const LOGIN_HTML =
  '<main class="auth-page"><form class="form" noValidate="" method="post" action="/login">' +
  '<input class="input" id="_R_1_" type="email" name="email"/>' +
  '<input class="input" id="_R_2_" type="password" name="password"/>' +
  '<button type="submit">Log In</button></form></main>';
const PASSWORD = 'correct horse battery staple';

const webDist = consoleBuild(
  {
    'index.html': INDEX,
    'theme.js': 'document.documentElement.dataset.theme = "light";',
    'prerendered.json': JSON.stringify({
      '/login': {
        html: LOGIN_HTML,
        styles: ['/assets/auth-layout-1.css', '/assets/"><script>x</script>.css'],
      },
      '/forgot-password': { html: '<form method="post"><input name="email"/></form>', styles: [] },
      // A page opened from a mailed link: one page for every link, keyed by its route pattern.
      '/password/update/:challengeId/:verificationCode': {
        html: '<form method="post"><input type="password" name="password"/></form>',
        styles: [],
      },
    }),
  },
  'berth-prerendered-',
);

const logLines: string[] = [];
let app: FastifyInstance;
let scriptSources: string[];

beforeAll(async () => {
  app = Fastify({
    // As the server's own (app.ts): `/login/` is `/login`.
    routerOptions: { ignoreTrailingSlash: true },
    logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } },
  });
  const document = consoleDocument(
    consoleIndexIn(webDist) as string,
    () => ({ appUrl: 'http://berth.test' }),
    (request) => /berth_signed_in=/.test(request.headers.cookie ?? ''),
  );
  scriptSources = document.scriptSources;
  await app.register(consoleStatic, { webDist, consoleDocument: document });
});
afterAll(async () => {
  await app.close();
});

const rootOf = (page: string) =>
  /<div id="root"[^>]{0,40}>([\s\S]*)<\/div><script type="module"/.exec(page)?.[1];

function post(url: string, body: string, contentType = 'application/x-www-form-urlencoded') {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': contentType, accept: 'text/html' },
    body,
  });
}

describe('the prerendered sign-in pages', () => {
  it('sends /login to a signed-out visitor with its form inside the root, marked, and its stylesheet', async () => {
    // `%6c` is `l`: the page is picked by the path the router decoded, not by the raw URL.
    for (const url of ['/login', '/login/', '/login?next=%2Fapps', '/%6cogin']) {
      const page = (await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
      expect(page).toContain(`<div id="root" data-prerendered>${LOGIN_HTML}</div>`);
      expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/auth-layout-1.css">');
      // A name the build could not have written is dropped, not linked.
      expect(page).not.toContain('<script>x</script>');
      expect(page).toContain('<script id="berth-config" type="application/json">');
    }
  });

  it('adds no script: the CSP hashes stay those of the inlined classic scripts', async () => {
    const page = (await app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } })).body;
    expect(scriptSources).toHaveLength(1);
    expect(rootOf(page)).toBe(LOGIN_HTML);
    expect(rootOf(page)).not.toContain('<script');
  });

  it('leaves the root empty with a session, and on every other path', async () => {
    const signedIn = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { accept: 'text/html', cookie: 'berth_signed_in=1' },
    });
    expect(signedIn.body).toContain('<div id="root"></div>');
    expect(signedIn.body).not.toContain('auth-layout-1.css');
    for (const url of ['/', '/apps', '/login/extra', '/signup']) {
      const page = (await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
      expect(page).toContain('<div id="root"></div>');
    }
  });

  it('answers a posted form with the page, the message and the typed email, never the password or a token', async () => {
    const email = 'ann+"quoted"@example.com';
    const response = await post('/login', new URLSearchParams({ email, password: PASSWORD }).toString());
    expect(response.statusCode).toBe(200);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain(
      '<input value="ann+&quot;quoted&quot;@example.com" class="input" id="_R_1_" type="email" name="email"/>',
    );
    expect(response.body).toContain(
      `role="alert"><div class="banner-body"><p class="banner-text">${NEEDS_JAVASCRIPT.replaceAll("'", '&#39;')}`,
    );
    expect(response.body).not.toContain(PASSWORD);
    expect(response.body).not.toMatch(/token/i);
    expect(logLines.join('\n')).not.toContain(PASSWORD);
    // The other prerendered forms post the same way.
    const forgot = await post('/forgot-password', 'email=bo%40example.com');
    expect(forgot.statusCode).toBe(200);
    expect(forgot.body).toContain('<input value="bo@example.com" name="email"/>');
  });

  it('refuses a field longer than a sign-in form has, without echoing it', async () => {
    const longEmail = `${'a'.repeat(250)}@example.com`;
    const tooLongEmail = await post(
      '/login',
      new URLSearchParams({ email: longEmail, password: 'x' }).toString(),
    );
    expect(tooLongEmail.statusCode).toBe(400);
    expect(tooLongEmail.body).toContain(NEEDS_JAVASCRIPT.slice(0, 30));
    expect(tooLongEmail.body).not.toContain(longEmail);
    const tooLongPassword = await post(
      '/login',
      new URLSearchParams({ email: 'a@b.c', password: 'p'.repeat(1025) }).toString(),
    );
    expect(tooLongPassword.statusCode).toBe(400);
    expect(tooLongPassword.body).not.toContain('value="a@b.c"');
  });

  it('refuses a body over the limit, and any body that is not a form', async () => {
    const huge = await post('/login', `email=a%40b.c&password=${'p'.repeat(SIGN_IN_FORM_BODY_LIMIT)}`);
    expect(huge.statusCode).toBe(413);
    const json = await post('/login', JSON.stringify({ email: 'a@b.c', tooLong: false }), 'application/json');
    expect(json.statusCode).toBe(400);
    expect(json.body).not.toContain('value="a@b.c"');
    const empty = await app.inject({ method: 'POST', url: '/login' });
    expect(empty.statusCode).toBe(400);
  });

  it('sends a mailed link’s page for every link of its pattern, and answers its post without the password', async () => {
    for (const url of [
      '/password/update/ch-1/code-1',
      '/password/update/ch-2/code%2F2',
      '/p%61ssword/update/a/b',
    ]) {
      const page = (await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
      expect(rootOf(page)).toBe('<form method="post"><input type="password" name="password"/></form>');
    }
    for (const url of ['/password/update/ch-1', '/password/update/ch-1/code-1/more']) {
      const page = (await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
      expect(page).toContain('<div id="root"></div>');
    }
    const posted = await post(
      '/password/update/ch-1/code-1',
      new URLSearchParams({ password: PASSWORD, passwordConfirmation: PASSWORD }).toString(),
    );
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toContain(NEEDS_JAVASCRIPT.slice(0, 30).replaceAll("'", '&#39;'));
    expect(posted.body).not.toContain(PASSWORD);
  });

  it('posts nowhere else: a path without a prerendered page is a JSON 404', async () => {
    const response = await post('/apps', 'email=a%40b.c');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
  });
});

describe('fillPrerendered', () => {
  it('writes the message after the form opens and the email before the input’s own attributes, escaped', () => {
    const filled = fillPrerendered(LOGIN_HTML, { message: 'Needs <b>scripts</b>', email: '"><script>' });
    expect(filled).toContain('action="/login"><div class="banner banner-error" role="alert">');
    expect(filled).toContain('Needs &lt;b&gt;scripts&lt;/b&gt;');
    expect(filled).toContain('<input value="&quot;&gt;&lt;script&gt;" class="input" id="_R_1_" type="email"');
    expect(filled).not.toContain('"><script>');
  });

  it('without an email field or a form, only the message is added', () => {
    expect(fillPrerendered('<p>x</p>', { message: 'm', email: 'a@b.c' })).toBe(
      '<div class="banner banner-error" role="alert"><div class="banner-body"><p class="banner-text">m</p></div></div><p>x</p>',
    );
  });
});

describe('readPostedSignIn', () => {
  it('keeps the email and drops the password', () => {
    const posted = readPostedSignIn(`email=a%40b.c&password=${encodeURIComponent(PASSWORD)}`);
    expect({ ...posted }).toEqual({ email: 'a@b.c', tooLong: false });
  });
});
