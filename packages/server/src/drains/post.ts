import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIP } from 'node:net';
import { rootCertificates, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { createOutboundGuard, type OutboundAllowList } from '../security/outbound-guard.ts';

/** How drains reach their destinations. */
export interface DeliveryTls {
  /** Certificate authorities destinations may present besides the system's (PEM): a private CA. */
  ca?: string[];
  /**
   * Destinations allowed besides public addresses (BERTH_DRAIN_ALLOW, BERTH_DRAIN_ALLOW_PRIVATE): none
   * unless the operator says so, so a tenant cannot aim a drain at Berth's own machine or network.
   */
  allow?: OutboundAllowList;
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

/** The outbound guard under the operator's allow-list, refusing with a delivery error. */
const guardOf = (tls: DeliveryTls) =>
  createOutboundGuard(
    tls.allow,
    (reason) => new DeliveryError(`${reason}: drains send only to public destinations`),
  );

/** TLS options: the system's authorities and the operator's own, and the guarded lookup. */
function tlsOptions(tls: DeliveryTls) {
  const { lookup } = guardOf(tls);
  return {
    ...(tls.ca?.length ? { ca: [...rootCertificates, ...tls.ca] } : {}),
    ...(lookup ? { lookup } : {}),
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
  guardOf(tls).checkHost(url.hostname);
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

/** A host as net and tls take it: an IPv6 literal written as in a URL ([::1]) loses its brackets. */
const socketHost = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** A TLS connection to a drain's destination, under the same rules as its requests. */
export function connectTls(host: string, port: number, tls: DeliveryTls): TLSSocket {
  guardOf(tls).checkHost(host);
  const bare = socketHost(host);
  // SNI carries names only (RFC 6066); an address literal is checked against the certificate's IPs.
  return tlsConnect({ host: bare, port, ...(isIP(bare) ? {} : { servername: bare }), ...tlsOptions(tls) });
}

/** Whether a plain TCP connection to the destination opens (an http:// destination's provision check). */
export function tcpReachable(host: string, port: number, tls: DeliveryTls): Promise<string | null> {
  const guard = guardOf(tls);
  return new Promise((resolve) => {
    try {
      guard.checkHost(host);
    } catch (error) {
      return resolve((error as Error).message);
    }
    const { lookup } = guard;
    const socket = connect({ host: socketHost(host), port, ...(lookup ? { lookup } : {}) });
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
