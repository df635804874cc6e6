import { getRuntimeConfig, type RuntimeConfig } from './config.ts';

export type ServiceFamily = 'auth' | 'api' | 'billing' | 'metrics';

export function serviceUrl(family: ServiceFamily, path: string): string {
  if (path.startsWith('http')) return path;
  const config = getRuntimeConfig();
  const bases: Record<ServiceFamily, string> = {
    auth: config.authUrl,
    api: config.apiUrl,
    billing: config.billingUrl,
    metrics: config.metricTunnelUrl,
  };
  return `${bases[family]}${path}`;
}

/** The headers of every call: HAL+JSON, and the bearer when there is one. */
export function headersFor(accessToken: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/hal+json' };
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  return headers;
}

/** How long an answer asked for early waits to be taken: past it, it is stale and asked for again. */
export const EARLY_ANSWER_MS = 10_000;

/**
 * The early answers and their generation. The page's inline start script (app/early-start.ts, written
 * into index.html) sends the first calls before the console's code has arrived and is a bundle of its
 * own, so the two share this state through the page's global object rather than through a module.
 */
interface EarlyState {
  /** Answers of GETs sent early, by bearer and URL: each is taken once, by the first identical call. */
  answers: Map<string, Promise<Response>>;
  /** A write or the session's end starts a new generation: answers asked for in an older one are not kept. */
  generation: number;
  /** Whether this page load's early calls have been sent (by the start script or by main.tsx). */
  started: boolean;
}

const EARLY_STATE_KEY = '__berthEarly';

function earlyState(): EarlyState {
  const page = globalThis as unknown as Record<string, EarlyState | undefined>;
  page[EARLY_STATE_KEY] ??= { answers: new Map(), generation: 0, started: false };
  return page[EARLY_STATE_KEY];
}

const earlyKey = (url: string, headers: Record<string, string>) => `${headers.Authorization ?? ''} ${url}`;

/** The current generation, for a chain of early calls to send its later calls in (see requestEarly). */
export function earlyGeneration(): number {
  return earlyState().generation;
}

/** True the first time in a page load; after that the early calls have been sent already. */
export function claimEarlyStart(): boolean {
  const state = earlyState();
  if (state.started) return false;
  state.started = true;
  return true;
}

/**
 * Sends a GET before the code that reads it has loaded (app/early-requests.ts): the api client's first
 * call for the same URL with the same bearer, within EARLY_ANSWER_MS and before any write, takes this
 * answer instead of asking again. Resolves with a copy of the answer for the caller to read. A call made
 * for an older generation (`sentFor`: a write happened since the chain began) is sent but not kept.
 */
export function requestEarly(
  family: ServiceFamily,
  path: string,
  accessToken: string | null,
  sentFor: number = earlyGeneration(),
): Promise<Response> {
  const url = serviceUrl(family, path);
  const headers = headersFor(accessToken);
  const answer = fetch(url, { method: 'GET', headers, credentials: 'include' });
  // The copy is made before any taker can read the body; a failure is the taker's to see.
  const copy = answer.then((response) => response.clone());
  answer.catch(() => {});
  if (sentFor === earlyGeneration()) keepAnswer(earlyKey(url, headers), answer);
  return copy;
}

/** Keeps an answer for the console's first identical call, for EARLY_ANSWER_MS. */
function keepAnswer(key: string, answer: Promise<Response>): void {
  const { answers } = earlyState();
  answers.set(key, answer);
  setTimeout(() => {
    if (answers.get(key) === answer) answers.delete(key);
  }, EARLY_ANSWER_MS);
}

/** The early answer for this call, once; undefined when there is none. */
export function takeEarlyAnswer(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const { answers } = earlyState();
  const key = earlyKey(url, headers);
  const answer = answers.get(key);
  answers.delete(key);
  return answer;
}

/**
 * After a write, or when the session ends: what the early answers say may no longer hold, and a call still
 * to come of a chain begun before may be answered before the write is done.
 */
export function forgetEarlyAnswers(): void {
  const state = earlyState();
  state.generation += 1;
  state.answers.clear();
}

/**
 * How the start-up chain (app/early-requests.ts) sends its calls: from the page (pageSender), or from the
 * start worker (workerSender), whose calls and answers do not wait for the page's main thread.
 */
export interface EarlySender {
  /** A call only the console reads the answer of. */
  send(family: ServiceFamily, path: string, accessToken: string | null): void;
  /** A call the chain reads the answer of first, to know its next calls. */
  read(family: ServiceFamily, path: string, accessToken: string | null): Promise<Response>;
  /** The calls the answers read so far lead to have been sent: the console may have those answers now. */
  release(): void;
  /** The chain has sent its last call. */
  finish(): void;
}

/** The chain's calls sent by the page itself, each kept for the console as it leaves. */
export function pageSender(sentFor: number = earlyGeneration()): EarlySender {
  return {
    send: (family, path, accessToken) => {
      requestEarly(family, path, accessToken, sentFor).catch(() => {});
    },
    read: (family, path, accessToken) => requestEarly(family, path, accessToken, sentFor),
    release: () => {},
    finish: () => {},
  };
}

/** An answer as the start worker posts it to the page: the body moves, it is not copied. */
interface PostedAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: ArrayBuffer;
}

/** What the start worker (app/early-worker.ts) tells the page, in the order it happens. */
export type EarlyWorkerMessage =
  | { kind: 'sent'; url: string; accessToken: string | null }
  | ({ kind: 'answer'; url: string; accessToken: string | null } & PostedAnswer)
  | { kind: 'failed'; url: string; accessToken: string | null }
  | { kind: 'done' };

/** What the page sends the start worker: the service families' addresses and the page opened. */
export interface EarlyWorkerStart {
  config: RuntimeConfig;
  location: { pathname: string; search: string };
}

/** Statuses whose answer has no body: a Response made with one throws. */
const NO_BODY = new Set([101, 103, 204, 205, 304]);

function responseOf(answer: PostedAnswer): Response {
  return new Response(NO_BODY.has(answer.status) ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
}

/**
 * The chain's calls sent from the start worker. The page learns of each call as it leaves ("sent"), so
 * that the console's identical call waits for its answer rather than asking again, and then of its answer.
 * An answer the chain reads is held until the calls it leads to have been sent (release): messages reach
 * the page in order, so by the time the console has read an answer and makes the calls that follow from
 * it, the page knows the chain has sent them.
 */
export function workerSender(
  post: (message: EarlyWorkerMessage, transfer?: Transferable[]) => void,
  /** Every call has been answered and posted after the chain finished: the worker may close. */
  onDone: () => void,
  fetchImpl: typeof fetch = fetch,
): EarlySender {
  const held: (() => void)[] = [];
  let pending = 0;
  let finished = false;
  const settled = () => {
    pending -= 1;
    if (finished && pending === 0) {
      post({ kind: 'done' });
      onDone();
    }
  };
  const call = async (family: ServiceFamily, path: string, accessToken: string | null, read: boolean) => {
    const url = serviceUrl(family, path);
    pending += 1;
    post({ kind: 'sent', url, accessToken });
    let answer: PostedAnswer;
    try {
      const response = await fetchImpl(url, {
        method: 'GET',
        headers: headersFor(accessToken),
        credentials: 'include',
      });
      answer = {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body: await response.arrayBuffer(),
      };
    } catch (error) {
      post({ kind: 'failed', url, accessToken });
      settled();
      throw error;
    }
    const deliver = () => {
      post({ kind: 'answer', url, accessToken, ...answer }, [answer.body]);
      settled();
    };
    if (!read) {
      deliver();
      return null;
    }
    // The chain reads its own copy: the posted body moves to the page.
    let copy: Response;
    try {
      copy = responseOf({ ...answer, body: answer.body.slice(0) });
    } catch (error) {
      deliver();
      throw error;
    }
    if (finished) deliver();
    else held.push(deliver);
    return copy;
  };
  const release = () => {
    for (const deliver of held.splice(0)) deliver();
  };
  return {
    send: (family, path, accessToken) => {
      call(family, path, accessToken, false).catch(() => {});
    },
    read: async (family, path, accessToken) => (await call(family, path, accessToken, true)) as Response,
    release,
    finish: () => {
      if (finished) return;
      finished = true;
      // Counted as a call of its own, so that a chain that sent nothing is done too.
      pending += 1;
      release();
      settled();
    },
  };
}

/** The part of a Worker the page uses (a test passes its own). */
export type EarlyWorkerPort = Pick<Worker, 'addEventListener' | 'removeEventListener' | 'terminate'>;

/** How long the worker has to say its first word before the page stops waiting for it. */
export const EARLY_WORKER_START_MS = 3_000;

/**
 * The page's side of the start worker: each call the worker says it has sent is kept for the console as
 * requestEarly keeps its own, and resolved by the answer the worker posts. The session check is awaited
 * from the start (`first`): the console may ask for it before the worker's first message arrives.
 *
 * Should the worker fail (a policy refusing it, an error in it, no word from it in EARLY_WORKER_START_MS)
 * it is stopped: a call the console is already waiting for is asked by the page, one it has not taken is
 * forgotten, and when the worker failed before its first message `refused` runs, so that the page sends
 * the chain itself.
 */
export function takeWorkerAnswers(
  worker: EarlyWorkerPort,
  first: { family: ServiceFamily; path: string },
  refused: () => void,
  sentFor: number = earlyGeneration(),
): void {
  const awaited = new Map<
    string,
    {
      url: string;
      headers: Record<string, string>;
      answer: Promise<Response>;
      resolve: (answer: Promise<Response>) => void;
    }
  >();
  let heard = false;
  const announce = (url: string, accessToken: string | null) => {
    const headers = headersFor(accessToken);
    const key = earlyKey(url, headers);
    // A call the chain sent after a write is not kept (see requestEarly).
    if (awaited.has(key) || sentFor !== earlyGeneration()) return;
    let resolve: (answer: Promise<Response>) => void = () => {};
    const answer = new Promise<Response>((settle) => {
      resolve = settle;
    });
    answer.catch(() => {});
    awaited.set(key, { url, headers, answer, resolve });
    keepAnswer(key, answer);
  };
  const answered = (url: string, accessToken: string | null, answer: () => Promise<Response>) => {
    const key = earlyKey(url, headersFor(accessToken));
    const waiting = awaited.get(key);
    if (!waiting) return;
    awaited.delete(key);
    waiting.resolve(answer());
  };
  const stop = () => {
    clearTimeout(silence);
    worker.removeEventListener('message', onMessage);
    worker.removeEventListener('error', onFailure);
    worker.removeEventListener('messageerror', onFailure);
    const { answers } = earlyState();
    for (const [key, { url, headers, answer, resolve }] of awaited) {
      if (answers.get(key) === answer) answers.delete(key);
      else resolve(fetch(url, { method: 'GET', headers, credentials: 'include' }));
    }
    awaited.clear();
  };
  const onMessage = (event: MessageEvent<EarlyWorkerMessage>) => {
    heard = true;
    clearTimeout(silence);
    const message = event.data;
    if (message.kind === 'sent') announce(message.url, message.accessToken);
    else if (message.kind === 'answer') {
      answered(message.url, message.accessToken, async () => responseOf(message));
    } else if (message.kind === 'failed') {
      answered(message.url, message.accessToken, () => Promise.reject(new TypeError('Failed to fetch')));
    } else stop();
  };
  const onFailure = () => {
    worker.terminate();
    stop();
    if (!heard) refused();
  };
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', onFailure);
  worker.addEventListener('messageerror', onFailure);
  const silence = setTimeout(onFailure, EARLY_WORKER_START_MS);
  announce(serviceUrl(first.family, first.path), null);
}

/**
 * Gives the early start back (the start worker failed before it sent anything): main.tsx, when it runs,
 * sends the chain from the page.
 */
export function releaseEarlyStart(): void {
  earlyState().started = false;
}
