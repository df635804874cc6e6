import dns, { type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import os from 'node:os';

// The one guard of outbound requests a tenant aims (drains; identity providers' metadata URLs next): they
// reach public addresses only, unless the operator's allow-list names their host or range. Without it a
// tenant could make the server talk to itself, to its network, or to a cloud's metadata service.

/** What the operator lets through besides public addresses. */
export interface OutboundAllowList {
  /** Every destination: no guard at all (BERTH_DRAIN_ALLOW_PRIVATE=on). */
  everything?: boolean;
  /** Host names (lower case, no trailing dot) that may resolve to any address. */
  hosts?: readonly string[];
  /** Addresses and CIDR ranges that pass, as literals or as what a name resolves to. */
  ranges?: readonly string[];
}

/** A destination the guard refuses; callers may give their own error type instead. */
export class OutboundRefusal extends Error {
  override name = 'OutboundRefusal';
}

// Ranges that are not public (IANA's special-purpose registries). IPv4 and IPv6 lists are kept apart:
// Node's BlockList matches an IPv4 address against IPv6 ranges as ::ffff:a.b.c.d, so one shared list
// holding ::ffff:0:0/96 refused every IPv4 address (issue 34).
const NOT_PUBLIC_IPV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private (RFC 1918)
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services among them
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relays (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, 255.255.255.255 among them
] as const)
  NOT_PUBLIC_IPV4.addSubnet(network, prefix, 'ipv4');

// IPv4-mapped addresses (::ffff:0:0/96) are not listed: they are unwrapped and judged as IPv4.
const NOT_PUBLIC_IPV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, and the deprecated IPv4-compatible ::a.b.c.d
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT)
  ['64:ff9b::', 96], // NAT64: its gateway carries it to any IPv4 address, private ones too
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments: Teredo (2001::/32), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: a relay carries it to the IPv4 address inside, private ones too
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing identifiers
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  NOT_PUBLIC_IPV6.addSubnet(network, prefix, 'ipv6');

const MAPPED_IPV4 = new BlockList();
MAPPED_IPV4.addSubnet('::ffff:0:0', 96, 'ipv6');

/** The WHATWG URL form of an IPv6 address: lower case, compressed, hexadecimal throughout. */
const canonicalIpv6 = (address: string) => new URL(`http://[${address}]`).hostname.slice(1, -1);

/** The IPv4 address inside an IPv4-mapped one (::ffff:a.b.c.d, also written ::ffff:7f00:1), else null. */
function mappedIpv4(address: string): string | null {
  if (!MAPPED_IPV4.check(address, 'ipv6')) return null;
  // Always "::ffff:HHHH:LLLL" in the URL form (the first 80 bits are zeros).
  const [high = 0, low = 0] = canonicalIpv6(address)
    .slice('::ffff:'.length)
    .split(':')
    .map((group) => Number.parseInt(group, 16));
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether the address is one of this machine's own (read each time: interfaces come and go). */
function isOwnAddress(address: string, family: 4 | 6): boolean {
  const wanted = family === 6 ? canonicalIpv6(address) : address;
  try {
    return Object.values(os.networkInterfaces()).some((addresses) =>
      (addresses ?? []).some(
        (own) => (own.family === 'IPv6' ? canonicalIpv6(own.address) : own.address) === wanted,
      ),
    );
  } catch {
    // The machine's addresses cannot be read: any address could be one of them.
    return true;
  }
}

const bareHost = (host: string) =>
  host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host.toLowerCase().replace(/\.$/, '');

export interface OutboundGuard {
  /** Whether a connection to this address may be made (a zone, as in fe80::1%eth0, is ignored). */
  allows(address: string): boolean;
  /** Throws when `host` is an address literal the guard refuses; a name is judged when it resolves. */
  checkHost(host: string): void;
  /**
   * Resolves names for net, tls and http, refusing a name when any of its addresses is refused; every
   * address handed on is one checked (no second resolution to rebind). Undefined when all is allowed.
   */
  lookup: LookupFunction | undefined;
}

/**
 * The guard under the operator's allow-list. `refusal` makes the error a refused destination raises
 * from a reason such as "10.0.0.1 is a private address" (callers add what they send only to).
 */
export function createOutboundGuard(
  allow: OutboundAllowList = {},
  refusal: (reason: string) => Error = (reason) => new OutboundRefusal(reason),
): OutboundGuard {
  const allowedIpv4 = new BlockList();
  const allowedIpv6 = new BlockList();
  for (const range of allow.ranges ?? []) {
    const [network = '', bits] = range.split('/');
    const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    const list = family === 'ipv6' ? allowedIpv6 : allowedIpv4;
    if (bits === undefined) list.addAddress(network, family);
    else list.addSubnet(network, Number(bits), family);
  }
  const allowedHosts = new Set((allow.hosts ?? []).map(bareHost));

  function allows(address: string): boolean {
    if (allow.everything) return true;
    const plain = address.split('%')[0] ?? '';
    const family = isIP(plain);
    if (family === 0) return false;
    if (family === 4 && allowedIpv4.check(plain, 'ipv4')) return true;
    if (family === 6 && allowedIpv6.check(plain, 'ipv6')) return true;
    const ipv4 = family === 4 ? plain : mappedIpv4(plain);
    if (ipv4 !== null) {
      if (family === 6 && allowedIpv4.check(ipv4, 'ipv4')) return true;
      return !NOT_PUBLIC_IPV4.check(ipv4, 'ipv4') && !isOwnAddress(ipv4, 4);
    }
    return !NOT_PUBLIC_IPV6.check(plain, 'ipv6') && !isOwnAddress(plain, 6);
  }

  const lookup: LookupFunction = (hostname, options, callback) => {
    // Every address is asked for and checked, whether Node wants them all (autoSelectFamily) or one.
    dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '');
      const [first] = addresses;
      if (!first) return callback(new Error(`${hostname} has no address`), '');
      if (!allowedHosts.has(bareHost(hostname)) && !addresses.every((found) => allows(found.address)))
        return callback(refusal(`${hostname} resolves to a private address`), '');
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };

  return {
    allows,
    checkHost(host) {
      const bare = bareHost(host);
      if (isIP(bare.split('%')[0] ?? '') && !allows(bare)) throw refusal(`${host} is a private address`);
    },
    lookup: allow.everything ? undefined : lookup,
  };
}
