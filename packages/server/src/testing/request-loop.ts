import { request } from 'node:http';

export interface RequestLoopResult {
  sent: number;
  /** Each request that did not answer 200 with a body: when (ms after the start) and why. */
  failures: { atMs: number; reason: string }[];
  /** With `retryHandshakeResets`: connections reset before the request was written, each sent again once. */
  handshakeResets: number;
}

/**
 * One GET of the edge for a hostname on a connection of its own, as separate visitors make them (no
 * reuse of a kept-alive socket): its answer, or why there was none.
 */
export function getThroughEdge(
  port: number,
  hostname: string,
  options: { path?: string; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string } | { error: string }> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: options.path ?? '/',
        agent: false,
        headers: { ...options.headers, Host: hostname },
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: body.trim() }));
        res.on('error', (error) => resolve({ error: error.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (error) => resolve({ error: error.message }));
    req.end();
  });
}

/**
 * Node's message for a connection the peer reset while it was being opened: the request was never
 * written, so the application behind the edge never saw it.
 */
const isHandshakeReset = (reason: string | null) => reason?.startsWith('connect ECONNRESET ') ?? false;

/**
 * Why a request of the loop failed (no answer, or not 200 with a body, or not the `expected` body when
 * one is given), or null.
 */
async function probe(
  port: number,
  hostname: string,
  timeoutMs: number,
  expected?: string,
): Promise<string | null> {
  const answer = await getThroughEdge(port, hostname, { timeoutMs });
  if ('error' in answer) return answer.error;
  const ok =
    answer.status === 200 && (expected === undefined ? answer.body !== '' : answer.body === expected);
  return ok ? null : `${answer.status} ${answer.body.slice(0, 80)}`;
}

/**
 * A steady loop of requests to an app's endpoint through the edge, one every `everyMs` whether the last
 * has answered or not (a slow answer is not a pause in the traffic), until `stop()`, which waits for the
 * ones in flight and tells what failed.
 */
export function startRequestLoop(
  port: number,
  hostname: string,
  options: { everyMs?: number; timeoutMs?: number; body?: string; retryHandshakeResets?: boolean } = {},
) {
  const started = Date.now();
  const failures: RequestLoopResult['failures'] = [];
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  let handshakeResets = 0;
  const timeoutMs = options.timeoutMs ?? 5000;
  const attempt = async (): Promise<string | null> => {
    const reason = await probe(port, hostname, timeoutMs, options.body);
    if (!isHandshakeReset(reason) || !options.retryHandshakeResets) return reason;
    handshakeResets++;
    return probe(port, hostname, timeoutMs, options.body);
  };
  const send = () => {
    sent++;
    const atMs = Date.now() - started;
    const done = attempt().then((reason) => {
      if (reason) failures.push({ atMs, reason });
      inFlight.delete(done);
    });
    inFlight.add(done);
  };
  send();
  const timer = setInterval(send, options.everyMs ?? 50);
  return {
    /** How many requests the loop has sent so far. */
    sentSoFar: () => sent,
    async stop(): Promise<RequestLoopResult> {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return { sent, failures, handshakeResets };
    },
  };
}
