import { DrizzleQueryError } from 'drizzle-orm/errors';

const MAX_LOGGED_MESSAGE = 1000;

/** The stack's frames, without the message line(s) in front of them (which may repeat parameters). */
function framesOf(error: Error): string {
  const stack = error.stack ?? '';
  const first = stack.indexOf('\n    at ');
  return first === -1 ? '' : stack.slice(first);
}

/**
 * An error as it may be written to the log: a failed query keeps its SQL text and its cause but never
 * its parameters (they hold what people typed: addresses, passwords, codes), and no message is longer
 * than a line or two, so a huge request cannot grow the log by its own size.
 */
export function loggableError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error).slice(0, MAX_LOGGED_MESSAGE));
  let message: string;
  if (error instanceof DrizzleQueryError) {
    const cause = error.cause instanceof Error ? error.cause.message : 'unknown cause';
    message = `Failed query (${cause.slice(0, 300)}): ${error.query}`;
  } else {
    message = error.message;
  }
  const safe = new Error(message.slice(0, MAX_LOGGED_MESSAGE));
  safe.name = error.name;
  const code = (error.cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(safe, { code });
  safe.stack = `${safe.name}: ${safe.message}${framesOf(error)}`;
  return safe;
}

/** Console paths whose later segments are secrets (mailed codes): only their first segments are logged. */
const SECRET_PATHS = ['/verify/', '/claim/', '/password/', '/otp-reset-verify/'];

/**
 * A request URL as it may be logged: no query string (signed links carry their signature there) and
 * no mailed code from a console path such as `/verify/:id/:code`.
 */
export function loggablePath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  const secret = SECRET_PATHS.find((prefix) => path.startsWith(prefix));
  const safe = secret ? `${secret}…` : path;
  return safe.slice(0, 300);
}

/** Fastify's request serializer for the log, with the path as `loggablePath` gives it. */
export function requestForLog(request: { method?: string; url?: string; ip?: string }) {
  return { method: request.method, url: loggablePath(request.url ?? ''), remoteAddress: request.ip };
}
