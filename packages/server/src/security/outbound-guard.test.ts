import dns from 'node:dns';
import { type AddressInfo, connect, createServer } from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOutboundGuard, OutboundRefusal } from './outbound-guard.ts';

// Issue 34: the guard of outbound requests a tenant aims. Public IPv4 and IPv6 pass; every private,
// reserved, mapped, translated and tunnelled form is refused, this machine's own addresses too; the
// operator's allow-list opens names and ranges; a name is judged by every address it resolves to.

afterEach(() => {
  vi.restoreAllMocks();
});

const guard = createOutboundGuard();

describe('the outbound guard', () => {
  it.each([
    '8.8.8.8',
    '93.184.216.34',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.3.1',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '::ffff:5db8:d822',
  ])('lets %s through', (address) => {
    expect(guard.allows(address)).toBe(true);
  });

  it.each([
    // IPv4: this network, private, shared, loopback, link-local, protocol, documentation, 6to4 relays,
    // benchmarking, multicast, reserved and broadcast.
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.1',
    '192.0.0.170',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6: unspecified, loopback (also written out), IPv4-compatible.
    '::',
    '::1',
    '0:0:0:0:0:0:0:1',
    '::127.0.0.1',
    '::a00:1',
    // IPv4-mapped, dotted and in hexadecimal, in any case, written out.
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:169.254.169.254',
    '0:0:0:0:0:ffff:a00:1',
    '::ffff:0.0.0.0',
    '::ffff:c0a8:101',
    // IPv4-translated, NAT64 (a public address inside too), local-use NAT64, discard.
    '::ffff:0:a00:1',
    '64:ff9b::8.8.8.8',
    '64:ff9b::7f00:1',
    '64:ff9b:1::a00:1',
    '100::1',
    // Teredo, benchmarking, documentation, 6to4 (a public address inside too), segment routing.
    '2001::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:2::1',
    '2001:db8::1',
    '3fff::1',
    '2002:7f00:1::1',
    '2002:808:808::1',
    '5f00::1',
    // Unique local, link-local (with a zone too), site-local, multicast.
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    'ff05::1:3',
    // Not an address at all: nothing to judge.
    'localhost',
    '',
  ])('refuses %s', (address) => {
    expect(guard.allows(address)).toBe(false);
  });

  it("refuses this machine's own addresses, public ones included, in any form", () => {
    for (const own of Object.values(os.networkInterfaces()).flat()) {
      if (own) expect(guard.allows(own.address), own.address).toBe(false);
    }
    vi.spyOn(os, 'networkInterfaces').mockReturnValue({
      eth0: [
        {
          address: '93.184.216.34',
          netmask: '255.255.255.0',
          family: 'IPv4',
          mac: '00:00:00:00:00:01',
          internal: false,
          cidr: '93.184.216.34/24',
        },
        {
          address: '2606:2800:220:1:248:1893:25c8:1946',
          netmask: 'ffff:ffff:ffff:ffff::',
          family: 'IPv6',
          mac: '00:00:00:00:00:01',
          internal: false,
          cidr: '2606:2800:220:1:248:1893:25c8:1946/64',
          scopeid: 0,
        },
      ],
    });
    expect(guard.allows('93.184.216.34')).toBe(false);
    expect(guard.allows('::ffff:93.184.216.34')).toBe(false);
    expect(guard.allows('2606:2800:0220:0001:0248:1893:25C8:1946')).toBe(false);
    expect(guard.allows('2606:2800:220:1:248:1893:25c8:1947')).toBe(true);
    expect(guard.allows('8.8.8.8')).toBe(true);
  });

  it('opens what the allow-list names, and nothing beside it', () => {
    const allowing = createOutboundGuard({ ranges: ['10.0.8.0/24', '127.0.0.1', 'fd00::/8'] });
    expect(allowing.allows('10.0.8.77')).toBe(true);
    expect(allowing.allows('::ffff:10.0.8.77')).toBe(true);
    expect(allowing.allows('127.0.0.1')).toBe(true);
    expect(allowing.allows('fd00::5')).toBe(true);
    expect(allowing.allows('10.0.9.1')).toBe(false);
    expect(allowing.allows('127.0.0.2')).toBe(false);
    expect(allowing.allows('::1')).toBe(false);
    expect(allowing.allows('fc00::1')).toBe(false);
    expect(allowing.allows('169.254.169.254')).toBe(false);
    const everything = createOutboundGuard({ everything: true });
    expect(everything.allows('169.254.169.254')).toBe(true);
    expect(everything.lookup).toBeUndefined();
    expect(() => everything.checkHost('127.0.0.1')).not.toThrow();
  });

  it('refuses a literal host at once, in brackets too, and leaves names to their resolution', () => {
    expect(() => guard.checkHost('93.184.216.34')).not.toThrow();
    expect(() => guard.checkHost('[2606:4700:4700::1111]')).not.toThrow();
    expect(() => guard.checkHost('logs.example.com')).not.toThrow();
    expect(() => guard.checkHost('[::1]')).toThrow(new OutboundRefusal('[::1] is a private address'));
    expect(() => guard.checkHost('[::ffff:7f00:1]')).toThrow('[::ffff:7f00:1] is a private address');
    class Refused extends Error {}
    const own = createOutboundGuard({}, (reason) => new Refused(`${reason}: not here`));
    expect(() => own.checkHost('10.0.0.1')).toThrow(new Refused('10.0.0.1 is a private address: not here'));
  });
});

describe("the guard's name resolution", () => {
  type Answer = { error: NodeJS.ErrnoException | null; address: unknown; family?: number };
  const resolve = (lookup: NonNullable<typeof guard.lookup>, host: string, all: boolean) =>
    new Promise<Answer>((done) =>
      lookup(host, { all }, (error, address, family) => done({ error, address, family })),
    );
  /** A resolver that answers these addresses for every name. */
  function answering(addresses: dns.LookupAddress[]) {
    return vi.spyOn(dns, 'lookup').mockImplementation(((
      _host: string,
      options: unknown,
      callback: unknown,
    ) => {
      expect(options).toMatchObject({ all: true });
      (callback as (error: null, found: dns.LookupAddress[]) => void)(null, addresses);
    }) as never);
  }
  const lookup = guard.lookup as NonNullable<typeof guard.lookup>;

  it('asks for every address and refuses a name when any of them is private', async () => {
    answering([
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    for (const all of [true, false]) {
      const { error } = await resolve(lookup, 'mixed.example.com', all);
      expect(error).toEqual(new OutboundRefusal('mixed.example.com resolves to a private address'));
    }
  });

  it('hands on the checked addresses: all of them when Node asks for all, else the first', async () => {
    const addresses = [
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      { address: '93.184.216.34', family: 4 },
    ];
    answering(addresses);
    expect(await resolve(lookup, 'example.com', true)).toEqual({
      error: null,
      address: addresses,
      family: undefined,
    });
    expect(await resolve(lookup, 'example.com', false)).toEqual({
      error: null,
      address: '2606:2800:220:1:248:1893:25c8:1946',
      family: 6,
    });
  });

  it('lets an allowed name resolve to private addresses, matched whatever its case or final dot', async () => {
    answering([{ address: '10.0.5.5', family: 4 }]);
    const allowing = createOutboundGuard({ hosts: ['collector.internal'] });
    const allowed = allowing.lookup as NonNullable<typeof guard.lookup>;
    expect((await resolve(allowed, 'Collector.Internal.', false)).address).toBe('10.0.5.5');
    expect((await resolve(allowed, 'other.internal', false)).error).toBeInstanceOf(OutboundRefusal);
  });

  it('connects through net with Node choosing the address family itself, and refuses otherwise', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const attempt = (lookupFn: typeof guard.lookup) =>
      new Promise<string>((done) => {
        const socket = connect({ host: 'localhost', port, lookup: lookupFn, autoSelectFamily: true });
        socket.once('connect', () => {
          socket.destroy();
          done('connected');
        });
        socket.once('error', (error) => done(error.message));
      });
    try {
      expect(await attempt(createOutboundGuard({ hosts: ['localhost'] }).lookup)).toBe('connected');
      expect(await attempt(createOutboundGuard({ ranges: ['127.0.0.1', '::1'] }).lookup)).toBe('connected');
      expect(await attempt(guard.lookup)).toBe('localhost resolves to a private address');
    } finally {
      server.close();
    }
  });
});
