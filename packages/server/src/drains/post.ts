import { lookup as dnsLookup } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, connect, isIP, type LookupFunction } from 'node:net';
import { rootCertificates, type TLSSocket, connect as tlsConnect } from 'node:tls';

/** How drains reach their destinations. */
export interface DeliveryTls {
  /** Certificate authorities destinations may present besides the system's (PEM): a private CA. */
  ca?: string[];
  /**
   * Whether destinations on loopback, private and link-local addresses are allowed (the operator's
   * choice; tests' receivers are on loopback). Off: a tenant cannot aim a drain at Berth's own machine
   * or network.
   */
  allowPrivate?: boolean;
}

/** A delivery that failed: the drain records the message and tries again later. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
  /** The destination refused the batch itself (a 4xx): sending it again would fail again. */
  permanent = false;
}

/** The whole of one request, however slowly the destination answers. */
const DEADLINE_MS = 15_000;
/** The most of an answer kept (a destination's error explains itself in its first lines). */
const ANSWER_LIMIT = 64 * 1024;

// Addresses a drain may not reach unless the operator allows private destinations.
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['::ffff:0:0', 96],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

const refused = (host: string) =>
  new DeliveryError(`${host} is a private address: drains send only to public destinations`);

/** A name resolution that refuses private addresses at connect time (no DNS rebinding around it). */
function guardedLookup(tls: DeliveryTls): LookupFunction | undefined {
  if (tls.allowPrivate) return undefined;
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: false }, (error, address, family) => {
      if (error) return callback(error, '', 0);
      if (isPrivateAddress(String(address))) return callback(refused(hostname), '', 0);
      callback(null, address as string, family as number);
    });
  };
}

/** Refuses a literal private address (a name is checked when it resolves). */
function checkHost(host: string, tls: DeliveryTls) {
  const bare = host.replace(/^\[|\]$/g, '');
  if (!tls.allowPrivate && isPrivateAddress(bare)) throw refused(host);
}

/** TLS options: the system's authorities and the operator's own, and the guarded lookup. */
function tlsOptions(tls: DeliveryTls) {
  return {
    ...(tls.ca?.length ? { ca: [...rootCertificates, ...tls.ca] } : {}),
    ...(guardedLookup(tls) ? { lookup: guardedLookup(tls) } : {}),
  };
}

/**
 * POSTs a body to a drain's destination (HTTP or HTTPS by its URL, credentials in the URL sent as Basic
 * authentication) and answers its status and the start of its text. A network failure, a refused
 * address or the deadline passing is a DeliveryError naming `what` the destination is.
 */
export function post(
  target: URL,
  body: string,
  headers: Record<string, string>,
  tls: DeliveryTls,
  what: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(target);
  checkHost(url.hostname, tls);
  const auth = url.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
    : '';
  url.username = '';
  url.password = '';
  const request = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          ...headers,
          'Content-Length': Buffer.byteLength(body),
          ...(auth ? { Authorization: auth } : {}),
        },
        ...tlsOptions(tls),
      },
      (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ANSWER_LIMIT) text += chunk;
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, text });
        });
      },
    );
    // A deadline for the whole request: a destination trickling bytes does not hold the shipper.
    const deadline = setTimeout(
      () => req.destroy(new DeliveryError(`${what} did not answer in ${DEADLINE_MS / 1000} s`)),
      DEADLINE_MS,
    );
    req.on('error', (error: Error) => {
      clearTimeout(deadline);
      reject(
        error instanceof DeliveryError ? error : new DeliveryError(`Cannot reach ${what}: ${error.message}`),
      );
    });
    req.end(body);
  });
}

/** A refusal of the batch: 4xx other than 408 and 429 will not change by sending it again. */
export function answerError(answer: { status: number }, what: string): DeliveryError {
  const error = new DeliveryError(`${what} answered ${answer.status}`);
  error.permanent =
    answer.status >= 400 && answer.status < 500 && answer.status !== 408 && answer.status !== 429;
  return error;
}

/** A TLS connection to a drain's destination, under the same rules as its requests. */
export function connectTls(host: string, port: number, tls: DeliveryTls): TLSSocket {
  checkHost(host, tls);
  return tlsConnect({ host, port, servername: host, ...tlsOptions(tls) });
}

/** Whether a plain TCP connection to the destination opens (an http:// destination's provision check). */
export function tcpReachable(host: string, port: number, tls: DeliveryTls): Promise<string | null> {
  return new Promise((resolve) => {
    try {
      checkHost(host, tls);
    } catch (error) {
      return resolve((error as Error).message);
    }
    const lookup = guardedLookup(tls);
    const socket = connect({ host, port, ...(lookup ? { lookup } : {}) });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(10_000, () => done(`${host}:${port} does not answer`));
    socket.once('connect', () => done(null));
    socket.once('error', (error) =>
      done(error instanceof DeliveryError ? error.message : `${host}:${port} does not answer`),
    );
  });
}
