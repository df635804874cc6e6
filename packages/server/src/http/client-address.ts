import { BlockList, isIPv4 } from 'node:net';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config.ts';

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
 * socket's, never the proxy-derived `request.ip`) and it names no other client.
 */
export function isFromThisMachine(request: FastifyRequest): boolean {
  if (!isLoopbackAddress(request.raw.socket?.remoteAddress)) return false;
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}
