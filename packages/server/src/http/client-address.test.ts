import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackUrl, loadConfig, parseTrustProxy } from '../config.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { isLoopbackAddress } from './client-address.ts';

describe('BERTH_TRUST_PROXY', () => {
  it('trusts no proxy unless told, and only loopback proxies for true and 1', () => {
    for (const off of [undefined, '', 'false', '0']) expect(parseTrustProxy(off)).toBe(false);
    for (const local of ['true', '1']) {
      expect(parseTrustProxy(local)).toEqual({ addresses: ['127.0.0.0/8', '::1/128'] });
    }
  });

  it('takes addresses, CIDR ranges and hop counts', () => {
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,fd00::/8')).toEqual({
      addresses: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'],
    });
    expect(parseTrustProxy('2')).toEqual({ hops: 2 });
  });

  it('stops the start on anything else, naming the variable', () => {
    for (const bad of [
      'yes',
      '01',
      '001',
      '00',
      '10.0.0.0/33',
      '300.1.1.1',
      'loopback',
      '127.0.0.1,,',
      '10.0.0.0/8/1',
      'x'.repeat(5000),
    ]) {
      expect(() => loadConfig({ BERTH_TRUST_PROXY: bad })).toThrow(ConfigError);
      expect(() => parseTrustProxy(bad)).toThrow(/^BERTH_TRUST_PROXY must be/);
    }
    expect(() => loadConfig({ BERTH_LOGIN_LIMIT_PER_ADDRESS: 'ten' })).toThrow(
      'BERTH_LOGIN_LIMIT_PER_ADDRESS must be an integer, got "ten"',
    );
    expect(() => loadConfig({ BERTH_MAILBOX: 'maybe' })).toThrow('BERTH_MAILBOX must be auto, on or off');
  });

  it('serves the mailbox by default only while the console is opened on this machine', () => {
    expect(loadConfig({}).mailbox).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://berth.example.com' }).mailbox).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://berth.example.com', BERTH_MAILBOX: 'on' }).mailbox).toBe(true);
    expect(loadConfig({ BERTH_MAILBOX: 'off' }).mailbox).toBe(false);
    expect(isLoopbackUrl('http://127.0.0.1:4000')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:4000')).toBe(true);
    expect(isLoopbackUrl('http://localhost.evil.example')).toBe(false);
  });

  it('knows loopback addresses in every form a socket reports them', () => {
    for (const address of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) {
      expect(isLoopbackAddress(address)).toBe(true);
    }
    for (const address of ['10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '0.0.0.0', '', undefined]) {
      expect(isLoopbackAddress(address)).toBe(false);
    }
  });
});

/**
 * A reverse proxy on loopback in front of the server, as a self-hoster would run Caddy or nginx: it
 * appends the client's address to X-Forwarded-For and passes everything else through.
 */
async function startProxy(target: number) {
  const proxy = http.createServer((request, response) => {
    const forwarded = request.headers['x-forwarded-for'];
    const client = request.socket.remoteAddress ?? '';
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: target,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-for': forwarded ? `${forwarded}, ${client}` : client },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return proxy;
}

interface Answer {
  status: number;
  body: string;
}

/** A request to the proxy from a given loopback address (127.0.0.2 and up stand for other people). */
function viaProxy(
  port: number,
  from: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: unknown },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

describe('behind a real reverse proxy on this machine', () => {
  let t: TestApp;
  let proxy: http.Server | undefined;
  afterEach(async () => {
    proxy?.close();
    await t.close();
  });

  let outerProxy: http.Server | undefined;
  afterEach(() => {
    outerProxy?.close();
    outerProxy = undefined;
  });

  async function start(trust: string, proxies = 1) {
    t = await testApp({
      trustProxy: parseTrustProxy(trust),
      loginRateLimit: { perAccount: 100, perAddress: 3, windowSeconds: 900 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    proxy = await startProxy((t.app.server.address() as AddressInfo).port);
    if (proxies === 2) outerProxy = await startProxy((proxy.address() as AddressInfo).port);
    return ((outerProxy ?? proxy).address() as AddressInfo).port;
  }

  function failedLogin(port: number, from: string, forged: string) {
    return viaProxy(port, from, {
      method: 'POST',
      path: '/auth/tokens',
      headers: { 'x-forwarded-for': forged },
      body: {
        username: `nobody-${Math.random().toString(36).slice(2)}@example.com`,
        password: 'Wrong-password1',
        grant_type: 'password',
        scope: 'manage',
      },
    });
  }

  it('never serves the outbox through it, and keeps it out of /config.json', async () => {
    const port = await start('127.0.0.1');
    await t.signUp({ verified: false, name: 'Proxy Reader' });
    // Even for a browser that holds this start's secret: the proxy, not the person, is on this machine.
    const cookie = `berth_mailbox=${t.mailboxSecret}`;
    for (const path of ['/dev/mail', '/dev/mail.json', '/%64ev/%6dail.json', '/dev/mail/']) {
      for (const forged of [undefined, '127.0.0.1']) {
        const answer = await viaProxy(port, '127.0.0.2', {
          path,
          headers: { cookie, ...(forged ? { 'x-forwarded-for': forged } : {}) },
        });
        expect(answer.status, path).toBe(404);
        expect(answer.body).not.toContain('Verify your email');
      }
    }
    const config = JSON.parse((await viaProxy(port, '127.0.0.2', { path: '/config.json' })).body);
    expect(config.mailboxUrl).toBeNull();
  });

  it('counts login limits against the real client, whatever X-Forwarded-For it forges', async () => {
    const port = await start('127.0.0.1');
    const forgeries = ['127.0.0.1', '198.51.100.1', '127.0.0.1, 198.51.100.2', '::1'];
    for (const forged of forgeries.slice(0, 3)) {
      expect((await failedLogin(port, '127.0.0.2', forged)).status).toBe(401);
    }
    const locked = await failedLogin(port, '127.0.0.2', forgeries[3] as string);
    expect(locked.status).toBe(429);
    expect(JSON.parse(locked.body).message).toBe(
      'Too many failed login attempts. Please wait 15 minutes and try again.',
    );
    // Another person behind the same proxy is not locked out by the first one's failures.
    expect((await failedLogin(port, '127.0.0.3', '127.0.0.2')).status).toBe(401);
  });

  it('with true, trusts only proxies on this machine: a remote client cannot forge its address', async () => {
    await start('true');
    const fromAfar = (forged: string) =>
      t.app.inject({
        method: 'POST',
        url: '/auth/tokens',
        remoteAddress: '203.0.113.50',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': forged },
        payload: JSON.stringify({
          username: `nobody-${forged}@example.com`,
          password: 'Wrong-password1',
          grant_type: 'password',
          scope: 'manage',
        }),
      });
    for (const forged of ['127.0.0.1', '198.51.100.1', '::1']) {
      expect((await fromAfar(forged)).statusCode).toBe(401);
    }
    expect((await fromAfar('198.51.100.2')).statusCode).toBe(429);
    const mailbox = await t.app.inject({
      method: 'GET',
      url: '/dev/mail.json',
      remoteAddress: '203.0.113.50',
      headers: { 'x-forwarded-for': '127.0.0.1', cookie: `berth_mailbox=${t.mailboxSecret}` },
    });
    expect(mailbox.statusCode).toBe(404);
  });

  it('with a hop count, takes the client from behind that many proxies', async () => {
    const port = await start('2', 2);
    // Two proxies: the socket is the inner one, the inner one's entry names the outer one, and the
    // outer one's entry names the client. What the client forged before them is not read.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await failedLogin(port, '127.0.0.6', `203.0.113.${attempt}`)).status).toBe(401);
    }
    expect((await failedLogin(port, '127.0.0.6', '203.0.113.99')).status).toBe(429);
    expect((await failedLogin(port, '127.0.0.7', '127.0.0.6')).status).toBe(401);
  });
});
