import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { MAILBOX_COOKIE } from './mailbox.routes.ts';
import { describeKeptMail, type Mail, mailLinks } from './mailer.ts';

// Every spelling of the mailbox's paths a router or a proxy might turn into `/dev/mail(.json)`.
const PATH_VARIANTS = [
  '/dev/mail',
  '/dev/mail.json',
  '/%64ev/mail',
  '/%64%65%76/%6d%61%69%6c',
  '/dev/%6dail.json',
  '/dev/mail%2Ejson',
  '/%2564ev/mail',
  '//dev/mail',
  '/dev//mail',
  '/dev/mail/',
  '/dev/mail.json/',
  '/dev/./mail',
  '/x/../dev/mail',
  '/dev/mail/../mail.json',
  '/DEV/MAIL',
  '/Dev/Mail.json',
  '/dev/mail;a=b',
  '/dev/mail.json;x',
  '/dev/mail?x=1',
  '/dev/mail.json#frag',
];

let t: TestApp;
// With a built console, unknown paths serve index.html: the mailbox must not hide behind that either.
const webDist = consoleBuild({ 'index.html': '<!doctype html><div id="root"></div>' });
const kept: Mail[] = [];
let recipient: string;
/** The cookie of a browser that opened the start banner's link (this start's secret). */
let opened: string;

beforeAll(async () => {
  t = await testApp({ webDist });
  const user = await t.signUp({ verified: false, name: 'Mail Owner' });
  recipient = user.email;
  opened = `${MAILBOX_COOKIE}=${t.mailboxSecret}`;
});
afterAll(async () => {
  await t.close();
});

/** True when an answer shows anything of the outbox. */
function revealsMail(body: string): boolean {
  return body.includes(recipient) || body.includes('Berth mailbox') || body.includes('/verify/');
}

describe('the mailbox on this machine', () => {
  it('shows the outbox to a direct request from a loopback address that holds the secret', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const headers = { cookie: opened };
      const page = await t.app.inject({ method: 'GET', url: '/dev/mail', remoteAddress, headers });
      expect(page.statusCode).toBe(200);
      expect(revealsMail(page.body)).toBe(true);
      expect(page.headers['cache-control']).toBe('no-store');
      const json = await t.app.inject({ method: 'GET', url: '/dev/mail.json', remoteAddress, headers });
      expect(json.headers['content-type']).toContain('application/json');
      expect(json.json().messages[0].to).toBe(recipient);
    }
  });

  it('names the mailbox in /config.json only to a request that could read it', async () => {
    const local = await t.app.inject({ method: 'GET', url: '/config.json' });
    expect(local.json().mailboxUrl).toBe('http://berth.test/dev/mail');
    const remote = await t.app.inject({ method: 'GET', url: '/config.json', remoteAddress: '203.0.113.9' });
    expect(remote.json().mailboxUrl).toBeNull();
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/config.json',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    expect(proxied.json().mailboxUrl).toBeNull();
  });
});

describe('the secret of this start (issue 34)', () => {
  const unknownPath = () => t.app.inject({ method: 'GET', url: '/dev/nothing' });

  it('the printed link keeps the secret in a cookie for /dev and goes on to the page without it', async () => {
    for (const page of ['/dev/mail', '/dev/mail.json']) {
      const first = await t.app.inject({ method: 'GET', url: `${page}?token=${t.mailboxSecret}` });
      expect(first.statusCode).toBe(303);
      expect(first.headers.location).toBe(page);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(revealsMail(first.body)).toBe(false);
      const [cookie] = first.cookies;
      expect(cookie).toMatchObject({
        name: MAILBOX_COOKIE,
        value: t.mailboxSecret,
        path: '/dev',
        httpOnly: true,
        sameSite: 'Strict',
      });
      expect(cookie?.maxAge).toBeUndefined();
      const next = await t.app.inject({
        method: 'GET',
        url: first.headers.location as string,
        headers: { cookie: `${cookie?.name}=${cookie?.value}` },
      });
      expect(next.statusCode).toBe(200);
      expect(revealsMail(next.body)).toBe(true);
    }
    // However the path was spelled, the way on is the mailbox's own path, never somewhere else.
    for (const [url, location] of [
      ['/%64ev/mail', '/dev/mail'],
      ['/dev/%6dail.json', '/dev/mail.json'],
      ['/dev/mail.json/', '/dev/mail.json'],
    ]) {
      const first = await t.app.inject({ method: 'GET', url: `${url}?token=${t.mailboxSecret}` });
      expect(first.headers.location, url).toBe(location);
    }
  });

  it('without the secret, a request from this machine gets the 404 of an unknown path', async () => {
    const unknown = await unknownPath();
    expect(unknown.statusCode).toBe(404);
    for (const url of PATH_VARIANTS) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(revealsMail(response.body), url).toBe(false);
    }
    for (const url of ['/dev/mail', '/dev/mail.json']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-type']).toBe(unknown.headers['content-type']);
      expect(response.body).toBe(unknown.body);
    }
  });

  it('a local proxy that rewrites Host and adds no forwarding header (bare nginx proxy_pass) gets nothing', async () => {
    // What such a proxy sends on for a visitor from anywhere: a loopback connection, Host rewritten to the
    // upstream's name, no Forwarded or X-Forwarded-For. Only the secret tells the visitor apart.
    for (const host of ['localhost:4000', '127.0.0.1:4000']) {
      for (const url of ['/dev/mail', '/dev/mail.json']) {
        const response = await t.app.inject({
          method: 'GET',
          url,
          headers: { host, 'user-agent': 'Mozilla/5.0', connection: 'close' },
        });
        expect(response.statusCode, `${host}${url}`).toBe(404);
        expect(revealsMail(response.body)).toBe(false);
      }
    }
  });

  it('refuses a wrong, overlong, repeated or earlier secret, in the link or in the cookie', async () => {
    const unknown = await unknownPath();
    const secret = t.mailboxSecret as string;
    const earlier = await testApp();
    try {
      expect(earlier.mailboxSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(earlier.mailboxSecret).not.toBe(secret);
      const wrong = [
        `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`,
        secret.slice(0, 20),
        '',
        `${secret}${'x'.repeat(200)}`,
        earlier.mailboxSecret as string,
      ];
      for (const token of wrong) {
        const viaLink = await t.app.inject({
          method: 'GET',
          url: `/dev/mail?token=${encodeURIComponent(token)}`,
        });
        expect(viaLink.statusCode, token).toBe(404);
        expect(viaLink.body).toBe(unknown.body);
        expect(viaLink.cookies).toEqual([]);
        const viaCookie = await t.app.inject({
          method: 'GET',
          url: '/dev/mail.json',
          headers: { cookie: `${MAILBOX_COOKIE}=${token}` },
        });
        expect(viaCookie.statusCode, token).toBe(404);
      }
      const repeated = await t.app.inject({
        method: 'GET',
        url: `/dev/mail?token=${secret}&token=${secret}`,
      });
      expect(repeated.statusCode).toBe(404);
      // This start's cookie opens nothing on another start of the server.
      const elsewhere = await earlier.app.inject({
        method: 'GET',
        url: '/dev/mail',
        headers: { cookie: opened },
      });
      expect(elsewhere.statusCode).toBe(404);
    } finally {
      await earlier.close();
    }
  });
});

describe('the mailbox from anywhere else', () => {
  it('answers every path variant from a non-loopback address as an unknown path, secret or not', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/dev/nothing', remoteAddress: '203.0.113.9' });
    expect(unknown.statusCode).toBe(404);
    for (const url of PATH_VARIANTS) {
      for (const remoteAddress of ['203.0.113.9', '10.0.0.8', '::ffff:192.0.2.1', '2001:db8::1']) {
        for (const headers of [{}, { cookie: opened }]) {
          const response = await t.app.inject({ method: 'GET', url, remoteAddress, headers });
          expect(revealsMail(response.body), `${url} from ${remoteAddress}`).toBe(false);
        }
        const link = await t.app.inject({
          method: 'GET',
          url: `/dev/mail?token=${t.mailboxSecret}`,
          remoteAddress,
        });
        expect(link.statusCode).toBe(404);
        expect(link.cookies).toEqual([]);
      }
    }
    const refused = await t.app.inject({ method: 'GET', url: '/%64ev/mail', remoteAddress: '203.0.113.9' });
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(refused.json().error).toBe('not_found');
  });

  it('refuses a loopback connection that names another client in a forwarding header, secret or not', async () => {
    const headers = [
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-forwarded-for': '203.0.113.9' },
      { forwarded: 'for=127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
      { 'x-forwarded-host': 'localhost' },
      { via: '1.1 caddy' },
      { 'true-client-ip': '127.0.0.1' },
      { 'cf-connecting-ip': '127.0.0.1' },
    ];
    for (const header of headers) {
      for (const url of ['/dev/mail', '/dev/mail.json', '/%64ev/%6dail.json']) {
        const response = await t.app.inject({ method: 'GET', url, headers: { ...header, cookie: opened } });
        expect(response.statusCode, `${url} with ${JSON.stringify(header)}`).toBe(404);
        expect(revealsMail(response.body)).toBe(false);
      }
    }
  });

  it('refuses a loopback connection addressed to another host name (DNS rebinding)', async () => {
    for (const named of [
      { host: 'attacker.example:4000' },
      { host: 'attacker.example:4000', origin: 'http://attacker.example:4000' },
      { host: 'localhost:4000', origin: 'http://attacker.example' },
      { host: '127.0.0.1.attacker.example' },
      { host: 'x'.repeat(1000) },
    ]) {
      const headers = { ...named, cookie: opened };
      const response = await t.app.inject({ method: 'GET', url: '/dev/mail.json', headers });
      expect(response.statusCode, JSON.stringify(named)).toBe(404);
      expect(revealsMail(response.body)).toBe(false);
    }
    for (const host of ['localhost:4000', '127.0.0.1:4000', '[::1]:4000', 'berth.localhost']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/dev/mail.json',
        headers: { host, origin: `http://${host}`, cookie: opened },
      });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('refuses the variants over a real socket too, where nothing normalizes the request line', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const cookie = `Cookie: ${opened}`;
    const direct = await rawGet(port, '/dev/mail.json', [cookie]);
    expect(direct.status).toBe(200);
    expect(revealsMail(direct.body)).toBe(true);
    for (const url of PATH_VARIANTS) {
      const proxied = await rawGet(port, url, ['X-Forwarded-For: 198.51.100.7', cookie]);
      expect(revealsMail(proxied.body), url).toBe(false);
      const forwarded = await rawGet(port, url, ['Forwarded: for=198.51.100.7;proto=https', cookie]);
      expect(revealsMail(forwarded.body), url).toBe(false);
      const bare = await rawGet(port, url);
      expect(revealsMail(bare.body), url).toBe(false);
    }
  });
});

describe('service families and the console share no path tests', () => {
  it('answers unknown API paths with JSON however they are spelled, and console paths with the console', async () => {
    for (const url of [
      '/api/nothing',
      '/%61pi/nothing',
      '/auth/nothing',
      '/billing/nothing',
      '/metrics/x/y',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('application/hal+json; charset=utf-8');
      expect(response.json().error).toBe('not_found');
    }
    const consolePath = await t.app.inject({ method: 'GET', url: '/apps/123' });
    expect(consolePath.statusCode).toBe(200);
    expect(consolePath.headers['content-type']).toContain('text/html');
    const encoded = await t.app.inject({ method: 'GET', url: '/%61pi/stacks' });
    expect(encoded.statusCode).toBe(401);
    expect(encoded.headers['content-type']).toBe('application/hal+json; charset=utf-8');
  });
});

describe('mail kept in the outbox', () => {
  it('is told to the server, with its links, so people on other machines can follow them', async () => {
    const told = await testApp({}, { onOutboxMail: (mail) => kept.push(mail) });
    try {
      await told.signUp({ verified: false, email: 'far-away@example.com' });
      expect(kept).toHaveLength(1);
      expect(describeKeptMail(kept[0] as Mail)).toMatch(
        /^Mail to far-away@example.com: Verify your email for Berth\n {4}http:\/\/berth\.test\/verify\/\S+\/\S+$/,
      );
    } finally {
      await told.close();
    }
  });

  it('lists each link of a message once', () => {
    const text = 'Open https://a.test/x and http://b.test/y?z=1.\nAgain: https://a.test/x';
    expect(mailLinks({ text })).toEqual(['https://a.test/x', 'http://b.test/y?z=1.']);
  });

  it('is not served at all when the mailbox is off, and its links are not printed (issue 34)', async () => {
    const printed: Mail[] = [];
    const off = await testApp(
      { mailbox: false, publicUrl: 'https://berth.example.com' },
      { onOutboxMail: (mail) => printed.push(mail) },
    );
    try {
      expect(off.mailboxSecret).toBeNull();
      const page = await off.app.inject({ method: 'GET', url: '/dev/mail' });
      expect(page.statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/config.json' })).json().mailboxUrl).toBeNull();
      // A server whose mail goes nowhere does not write live links into its output instead.
      const user = await off.signUp({ verified: false, email: 'public-reader@example.com' });
      await off.call('POST', '/auth/password/resets/new', { body: { email: user.email, origin: 'app' } });
      // The reset mail is written just after the answer.
      await expect
        .poll(async () => (await off.mailer.recent()).filter((mail) => mail.to === user.email).length)
        .toBe(2);
      expect(printed).toEqual([]);
    } finally {
      await off.close();
    }
  });
});

/** One GET over a fresh TCP connection, the request line exactly as given. */
function rawGet(
  port: number,
  target: string,
  headers: string[] = [],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(
      [`GET ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers, '', ''].join('\r\n'),
    );
  });
}
