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

/** Answers of GETs sent early, by bearer and URL: each is taken once, by the first identical call. */
const earlyAnswers = new Map<string, Promise<Response>>();
const earlyKey = (url: string, headers: Record<string, string>) => `${headers.Authorization ?? ''} ${url}`;
/** A write or the session's end starts a new generation: answers asked for in an older one are not kept. */
let generation = 0;

/** The current generation, for a chain of early calls to send its later calls in (see requestEarly). */
export function earlyGeneration(): number {
  return generation;
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
  sentFor: number = generation,
): Promise<Response> {
  const url = serviceUrl(family, path);
  const headers = headersFor(accessToken);
  const key = earlyKey(url, headers);
  const answer = fetch(url, { method: 'GET', headers, credentials: 'include' });
  // The copy is made before any taker can read the body; a failure is the taker's to see.
  const copy = answer.then((response) => response.clone());
  answer.catch(() => {});
  if (sentFor !== generation) return copy;
  earlyAnswers.set(key, answer);
  setTimeout(() => {
    if (earlyAnswers.get(key) === answer) earlyAnswers.delete(key);
  }, EARLY_ANSWER_MS);
  return copy;
}

/** The early answer for this call, once; undefined when there is none. */
export function takeEarlyAnswer(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const key = earlyKey(url, headers);
  const answer = earlyAnswers.get(key);
  earlyAnswers.delete(key);
  return answer;
}

/**
 * After a write, or when the session ends: what the early answers say may no longer hold, and a call still
 * to come of a chain begun before may be answered before the write is done.
 */
export function forgetEarlyAnswers(): void {
  generation += 1;
  earlyAnswers.clear();
}
