import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Which proxies may name the client: none, those at these addresses or ranges, or the N nearest. */
export type TrustProxy = false | { addresses: string[] } | { hops: number };

/** Fastify's `trustProxy` for our setting; a hop count trusts the socket and the next N-1 entries. */
export function fastifyTrustProxy(trust: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (trust === false) return false;
  if ('hops' in trust) {
    const { hops } = trust;
    // Fastify answers a plain number with "trust nobody"; hop counting is what the operator asked for.
    return (_address: string, hop: number) => hop < hops;
  }
  return trust.addresses;
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** localhost, a name under .localhost, 127.x.x.x or ::1 (with or without brackets). */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  return isLoopbackAddress(bare);
}

/** The host name of a Host header (`localhost:4000`, `[::1]:4000`, `127.0.0.1`). */
function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
  const plain = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  return isIPv4(plain) ? loopback.check(plain, 'ipv4') : loopback.check(plain, 'ipv6');
}

/**
 * Headers by which proxies, load balancers and CDNs say whom they forward for. A request carrying any
 * of them came through something, so its loopback peer is not the person at this machine.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'x-original-forwarded-for',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'via',
];

/**
 * True for a request made on this machine itself: its connection comes from a loopback address (the
 * socket's, never the proxy-derived `request.ip`), it names no other client, and it was addressed to
 * this machine by a loopback name. The last check stops DNS rebinding: a web page whose own host name
 * the attacker points at 127.0.0.1 connects from loopback, but its requests carry that host name.
 */
export function isFromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return false;
  if (!FORWARDING_HEADERS.every((name) => request.headers[name] === undefined)) return false;
  const host = request.headers.host ?? '';
  if (host.length > 300 || !isLoopbackHostname(hostnameOf(host))) return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return isLoopbackHostname(new URL(origin).hostname);
  } catch {
    return false;
  }
}
