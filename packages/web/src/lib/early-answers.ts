import { getRuntimeConfig } from './config.ts';

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
  const { answers } = earlyState();
  const url = serviceUrl(family, path);
  const headers = headersFor(accessToken);
  const key = earlyKey(url, headers);
  const answer = fetch(url, { method: 'GET', headers, credentials: 'include' });
  // The copy is made before any taker can read the body; a failure is the taker's to see.
  const copy = answer.then((response) => response.clone());
  answer.catch(() => {});
  if (sentFor !== earlyGeneration()) return copy;
  answers.set(key, answer);
  setTimeout(() => {
    if (answers.get(key) === answer) answers.delete(key);
  }, EARLY_ANSWER_MS);
  return copy;
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
