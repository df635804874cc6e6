import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
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

beforeAll(async () => {
  t = await testApp({ webDist });
  const user = await t.signUp({ verified: false, name: 'Mail Owner' });
  recipient = user.email;
});
afterAll(async () => {
  await t.close();
});

/** True when an answer shows anything of the outbox. */
function revealsMail(body: string): boolean {
  return body.includes(recipient) || body.includes('Berth mailbox') || body.includes('/verify/');
}

describe('the mailbox on this machine', () => {
  it('shows the outbox to a direct request from a loopback address', async () => {
    for (const remoteAddress of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const page = await t.app.inject({ method: 'GET', url: '/dev/mail', remoteAddress });
      expect(page.statusCode).toBe(200);
      expect(revealsMail(page.body)).toBe(true);
      const json = await t.app.inject({ method: 'GET', url: '/dev/mail.json', remoteAddress });
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

describe('the mailbox from anywhere else', () => {
  it('answers every path variant from a non-loopback address as an unknown path', async () => {
    const unknown = await t.app.inject({ method: 'GET', url: '/dev/nothing', remoteAddress: '203.0.113.9' });
    expect(unknown.statusCode).toBe(404);
    for (const url of PATH_VARIANTS) {
      for (const remoteAddress of ['203.0.113.9', '10.0.0.8', '::ffff:192.0.2.1', '2001:db8::1']) {
        const response = await t.app.inject({ method: 'GET', url, remoteAddress });
        expect(revealsMail(response.body), `${url} from ${remoteAddress}`).toBe(false);
      }
    }
    const refused = await t.app.inject({ method: 'GET', url: '/%64ev/mail', remoteAddress: '203.0.113.9' });
    expect(refused.statusCode).toBe(404);
    expect(refused.headers['content-type']).toBe(unknown.headers['content-type']);
    expect(refused.json().error).toBe('not_found');
  });

  it('refuses a loopback connection that names another client in a forwarding header', async () => {
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
        const response = await t.app.inject({ method: 'GET', url, headers: header });
        expect(response.statusCode, `${url} with ${JSON.stringify(header)}`).toBe(404);
        expect(revealsMail(response.body)).toBe(false);
      }
    }
  });

  it('refuses a loopback connection addressed to another host name (DNS rebinding)', async () => {
    for (const headers of [
      { host: 'attacker.example:4000' },
      { host: 'attacker.example:4000', origin: 'http://attacker.example:4000' },
      { host: 'localhost:4000', origin: 'http://attacker.example' },
      { host: '127.0.0.1.attacker.example' },
      { host: 'x'.repeat(1000) },
    ]) {
      const response = await t.app.inject({ method: 'GET', url: '/dev/mail.json', headers });
      expect(response.statusCode, JSON.stringify(headers)).toBe(404);
      expect(revealsMail(response.body)).toBe(false);
    }
    for (const host of ['localhost:4000', '127.0.0.1:4000', '[::1]:4000', 'berth.localhost']) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/dev/mail.json',
        headers: { host, origin: `http://${host}` },
      });
      expect(response.statusCode, host).toBe(200);
    }
  });

  it('refuses the variants over a real socket too, where nothing normalizes the request line', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const direct = await rawGet(port, '/dev/mail.json');
    expect(direct.status).toBe(200);
    expect(revealsMail(direct.body)).toBe(true);
    for (const url of PATH_VARIANTS) {
      const proxied = await rawGet(port, url, ['X-Forwarded-For: 198.51.100.7']);
      expect(revealsMail(proxied.body), url).toBe(false);
      const forwarded = await rawGet(port, url, ['Forwarded: for=198.51.100.7;proto=https']);
      expect(revealsMail(forwarded.body), url).toBe(false);
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

  it('is not served at all when the mailbox is off', async () => {
    const off = await testApp({ mailbox: false });
    try {
      const page = await off.app.inject({ method: 'GET', url: '/dev/mail' });
      expect(page.statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/config.json' })).json().mailboxUrl).toBeNull();
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
