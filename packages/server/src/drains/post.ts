import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';

/** Certificate authorities drain destinations may present besides the system's (PEM). */
export interface DeliveryTls {
  ca?: string[];
}

/** A delivery that failed: the drain records the message and tries again later. */
export class DeliveryError extends Error {
  override name = 'DeliveryError';
}

const TIMEOUT_MS = 15_000;
/** The most of an answer kept (a destination's error explains itself in its first lines). */
const ANSWER_LIMIT = 1_000_000;

/**
 * POSTs a body to a drain's destination (HTTP or HTTPS by its URL, credentials in the URL sent as Basic
 * authentication) and answers its status and text; a network failure or a timeout is a DeliveryError
 * naming `what` the destination is.
 */
export function post(
  target: URL,
  body: string,
  headers: Record<string, string>,
  tls: DeliveryTls,
  what: string,
): Promise<{ status: number; text: string }> {
  const url = new URL(target);
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
        timeout: TIMEOUT_MS,
        ...(tls.ca ? { ca: tls.ca } : {}),
      },
      (res: IncomingMessage) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < ANSWER_LIMIT) text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('timeout', () =>
      req.destroy(new DeliveryError(`${what} did not answer in ${TIMEOUT_MS / 1000} s`)),
    );
    req.on('error', (error: Error) =>
      reject(
        error instanceof DeliveryError ? error : new DeliveryError(`Cannot reach ${what}: ${error.message}`),
      ),
    );
    req.end(body);
  });
}

/** Whether a plain TCP connection to the destination opens (an http:// destination's provision check). */
export function tcpReachable(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(10_000, () => done(`${host}:${port} did not answer in 10 s`));
    socket.once('connect', () => done(null));
    socket.once('error', (error) => done(`Cannot connect to ${host}:${port}: ${error.message}`));
  });
}
