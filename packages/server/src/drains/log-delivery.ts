import { answerError, connectTls, DeliveryError, type DeliveryTls, post } from './post.ts';

export { DeliveryError, type DeliveryTls } from './post.ts';

import { trimEndChar } from '@berth/core';

// The wire formats log drains speak: JSON batches over HTTPS POST (most hosted log services), RFC 5424
// syslog over TLS with octet counting (RFC 6587) for syslog services, and Elasticsearch's bulk API.

/** One line a drain ships: where it came from and what it said. */
export interface DrainLine {
  time: Date;
  /**
   * `app` and `database` container output; `operation` lines of deploys and other operations; `proxy`
   * requests an endpoint answered.
   */
  source: 'app' | 'database' | 'operation' | 'proxy';
  environment: string;
  /** The app or database (or the operation's resource) it belongs to. */
  resource: string;
  /** The service's process type, or the operation's type. */
  service: string;
  /** The container's name, or the operation's id. */
  origin: string;
  stream: 'stdout' | 'stderr';
  message: string;
}

const TIMEOUT_MS = 15_000;

function jsonLine(line: DrainLine) {
  return {
    time: line.time.toISOString(),
    source: line.source,
    environment: line.environment,
    resource: line.resource,
    service: line.service,
    origin: line.origin,
    stream: line.stream,
    message: line.message,
  };
}

/** POSTs a JSON array of lines; any 2xx is delivered. */
export async function deliverHttps(url: string, lines: DrainLine[], tls: DeliveryTls): Promise<void> {
  const answer = await post(
    new URL(url),
    JSON.stringify(lines.map(jsonLine)),
    { 'Content-Type': 'application/json' },
    tls,
    "the drain's URL",
  );
  if (answer.status < 200 || answer.status >= 300) throw answerError(answer, "The drain's URL");
}

/** RFC 5424 structured-data-free text: no newlines inside a message. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ');

/** Syslog names: printable ASCII without spaces, at most 48 characters (APP-NAME). */
const syslogName = (text: string, max: number) => (text.replace(/[^\x21-\x7e]/g, '_') || '-').slice(0, max);

/**
 * One RFC 5424 message, framed by its length (RFC 6587 octet counting). Facility user (1); severity
 * informational (6) for standard output, error (3) for standard error. A token prefixes the message
 * (the syslog services that identify the sender by one).
 */
export function syslogFrame(line: DrainLine, token: string): string {
  const severity = line.stream === 'stderr' ? 3 : 6;
  const priority = 1 * 8 + severity;
  const host = syslogName(`${line.environment}.${line.resource}`, 255);
  const app = syslogName(line.resource, 48);
  const procId = syslogName(line.origin, 128);
  const msgId = syslogName(line.service, 32);
  const text = `${token ? `${token} ` : ''}${oneLine(line.message)}`;
  const message = `<${priority}>1 ${line.time.toISOString()} ${host} ${app} ${procId} ${msgId} - ${text}`;
  return `${Buffer.byteLength(message)} ${message}`;
}

/** Sends lines as syslog over TLS, then closes: delivered once everything is written and flushed. */
export function deliverSyslog(
  host: string,
  port: number,
  token: string,
  lines: DrainLine[],
  tls: DeliveryTls,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let socket: ReturnType<typeof connectTls>;
    try {
      socket = connectTls(host, port, tls);
    } catch (error) {
      return reject(error);
    }
    const fail = (error: Error) => {
      clearTimeout(deadline);
      socket.destroy();
      reject(
        error instanceof DeliveryError
          ? error
          : new DeliveryError(`Cannot reach ${host}:${port}: ${error.message}`),
      );
    };
    // A deadline for the whole delivery: a destination that reads slowly does not hold the shipper.
    const deadline = setTimeout(
      () => fail(new DeliveryError(`${host}:${port} did not take the batch in ${TIMEOUT_MS / 1000} s`)),
      TIMEOUT_MS,
    );
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.end(lines.map((line) => syslogFrame(line, token)).join(''), () => {
        clearTimeout(deadline);
        resolve();
      });
    });
  });
}

/** Indexes lines with Elasticsearch's bulk API, one daily index; any item's error fails the batch. */
export async function deliverElasticsearch(
  baseUrl: string,
  lines: DrainLine[],
  tls: DeliveryTls,
): Promise<void> {
  const url = new URL(baseUrl);
  url.pathname = `${trimEndChar(url.pathname, '/')}/_bulk`;
  const body = lines
    .map(
      (line) =>
        `${JSON.stringify({ index: { _index: `logs-${line.time.toISOString().slice(0, 10).replaceAll('-', '.')}` } })}\n${JSON.stringify({ '@timestamp': line.time.toISOString(), ...jsonLine(line) })}\n`,
    )
    .join('');
  const answer = await post(url, body, { 'Content-Type': 'application/x-ndjson' }, tls, 'Elasticsearch');
  if (answer.status >= 300) throw answerError(answer, 'Elasticsearch');
  let failed = true;
  try {
    failed = (JSON.parse(answer.text) as { errors?: boolean }).errors !== false;
  } catch {
    // Not the bulk API's answer: the batch did not go in.
  }
  if (failed) throw new DeliveryError('Elasticsearch refused some lines of the batch');
}

/** Whether a TLS connection to the destination opens (what provisioning a drain checks). */
export function tlsReachable(host: string, port: number, tls: DeliveryTls): Promise<string | null> {
  return new Promise((resolve) => {
    let socket: ReturnType<typeof connectTls>;
    try {
      socket = connectTls(host, port, tls);
    } catch (error) {
      return resolve((error as Error).message);
    }
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    // One message for every way it fails: the check is not a port scanner.
    const unanswered = `${host}:${port} does not answer over TLS`;
    socket.setTimeout(10_000, () => done(unanswered));
    socket.once('secureConnect', () => done(null));
    socket.once('error', (error) => done(error instanceof DeliveryError ? error.message : unanswered));
  });
}
