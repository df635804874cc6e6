import { getRuntimeConfig } from './config.ts';
import { type SessionStore, sessionStore, validElevatedToken } from './session-store.ts';

export type ServiceFamily = 'auth' | 'api' | 'billing' | 'metrics';

/** contract §1.3: every failure carries a JSON body with `error` (machine code) and `message` (shown verbatim). */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string | null;
  readonly body: unknown;

  constructor(status: number, message: string, code: string | null, body: unknown) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(error: unknown, code?: string): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: HttpMethod;
  body?: unknown;
  /** Which bearer to send: the session token, the elevated one when valid (contract §3.6), or none. */
  auth?: 'session' | 'elevated' | 'none';
  /** contract §1.1: include everywhere except the elevation POST /tokens. */
  credentials?: RequestCredentials;
  signal?: AbortSignal;
}

/** A 204 answer reads as an empty object (contract §1.2). */
export type EmptyResponse = Record<string, never>;

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

function errorBodyOf(body: unknown, status: number): { message: string; code: string | null } {
  if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    return {
      message: typeof message === 'string' && message ? message : `Request failed with status ${status}`,
      code: typeof error === 'string' ? error : null,
    };
  }
  return { message: `Request failed with status ${status}`, code: null };
}

/** The headers of every call: HAL+JSON, and the bearer when there is one. */
function headersFor(accessToken: string | null): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': 'application/hal+json' };
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  return headers;
}

/** How long an answer asked for early waits to be taken: past it, it is stale and asked for again. */
export const EARLY_ANSWER_MS = 10_000;

/** Answers of GETs sent early, by bearer and URL: each is taken once, by the first identical call. */
const earlyAnswers = new Map<string, Promise<Response>>();
const earlyKey = (url: string, headers: Record<string, string>) => `${headers.Authorization ?? ''} ${url}`;
// A session that ends takes its early answers with it.
sessionStore.onReset(() => earlyAnswers.clear());

/**
 * Sends a GET before the code that reads it has loaded (app/early-requests.ts): the api client's first
 * call for the same URL with the same bearer, within EARLY_ANSWER_MS and before any write, takes this
 * answer instead of asking again. Resolves with a copy of the answer for the caller to read.
 */
export function requestEarly(
  family: ServiceFamily,
  path: string,
  accessToken: string | null,
): Promise<Response> {
  const url = serviceUrl(family, path);
  const headers = headersFor(accessToken);
  const key = earlyKey(url, headers);
  const answer = fetch(url, { method: 'GET', headers, credentials: 'include' });
  // The copy is made before any taker can read the body; a failure is the taker's to see.
  const copy = answer.then((response) => response.clone());
  answer.catch(() => {});
  earlyAnswers.set(key, answer);
  setTimeout(() => {
    if (earlyAnswers.get(key) === answer) earlyAnswers.delete(key);
  }, EARLY_ANSWER_MS);
  return copy;
}

function takeEarlyAnswer(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const key = earlyKey(url, headers);
  const answer = earlyAnswers.get(key);
  earlyAnswers.delete(key);
  return answer;
}

export function createApiClient(store: SessionStore, fetchImpl: () => typeof fetch = () => fetch) {
  return async function apiRequest<T>(
    family: ServiceFamily,
    path: string,
    options: ApiRequestOptions = {},
  ): Promise<T> {
    const method = options.method ?? 'GET';
    const state = store.getState();
    const auth = options.auth ?? 'session';
    const token =
      auth === 'none'
        ? null
        : auth === 'elevated'
          ? (validElevatedToken(state) ?? state.accessToken)
          : state.accessToken;

    const url = serviceUrl(family, path);
    const headers = headersFor(token?.accessToken ?? null);
    // A write may change what an early answer says (a verified email, a new organization): none is
    // taken after one.
    if (method !== 'GET') earlyAnswers.clear();
    const early = method === 'GET' ? takeEarlyAnswer(url, headers) : undefined;
    const response = await (early ??
      fetchImpl()(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: options.credentials ?? 'include',
        signal: options.signal,
      }));

    if (response.status === 204) return {} as T;

    const text = await response.text();
    let body: unknown = null;
    let parsed = false;
    try {
      body = text ? JSON.parse(text) : null;
      parsed = text !== '';
    } catch {
      parsed = false;
    }

    if (!response.ok) {
      // spec 1 §4: a 401 on a GET means the session is gone. Without a bearer (boot) there is nothing to drop.
      if (method === 'GET' && response.status === 401 && token) store.reset();
      const { message, code } = errorBodyOf(body, response.status);
      throw new ApiError(response.status, message, code, body);
    }
    // contract §1.2: a 2xx that is not 204 must carry JSON.
    if (!parsed) throw new ApiError(response.status, 'The server sent an unreadable response', null, text);
    return body as T;
  };
}

export const apiRequest = createApiClient(sessionStore);
