import {
  forgetEarlyAnswers,
  headersFor,
  type ServiceFamily,
  serviceUrl,
  takeEarlyAnswer,
} from './early-answers.ts';
import { type SessionStore, sessionStore, validElevatedToken } from './session-store.ts';

// The service families' URLs are the early answers' too (early-answers.ts); the client's users find them here.
export type { ServiceFamily };
export { serviceUrl };

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
  /** A multipart body instead of JSON (contract §1.1's one exception: the support attachment upload). */
  formData?: FormData;
  /** Which bearer to send: the session token, the elevated one when valid (contract §3.6), or none. */
  auth?: 'session' | 'elevated' | 'none';
  /** contract §1.1: include everywhere except the elevation POST /tokens. */
  credentials?: RequestCredentials;
  signal?: AbortSignal;
}

/** A 204 answer reads as an empty object (contract §1.2). */
export type EmptyResponse = Record<string, never>;

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

// A session that ends takes its early answers with it.
sessionStore.onReset(forgetEarlyAnswers);

export function createApiClient(store: SessionStore, fetchImpl: () => typeof fetch = () => fetch) {
  /**
   * One call under the client's rules (bearer, cookies, early answers, a 401 on a GET ends the session):
   * its successful answer, unread; a failure throws an ApiError with the server's message.
   */
  async function send(family: ServiceFamily, path: string, options: ApiRequestOptions): Promise<Response> {
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
    // The browser writes a multipart body's content type itself, with its boundary.
    if (options.formData) delete headers['Content-Type'];
    // A write may change what an early answer says (a verified email, a new organization): none is
    // taken after one.
    if (method !== 'GET') forgetEarlyAnswers();
    const early = method === 'GET' ? takeEarlyAnswer(url, headers) : undefined;
    const response = await (early ??
      fetchImpl()(url, {
        method,
        headers,
        body: options.formData ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        credentials: options.credentials ?? 'include',
        signal: options.signal,
      }));
    if (response.ok) return response;

    // spec 1 §4: a 401 on a GET means the session is gone. Without a bearer (boot) there is nothing to drop.
    if (method === 'GET' && response.status === 401 && token) store.reset();
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // Not JSON: a proxy's page, say; the message is then a plain one.
    }
    const { message, code } = errorBodyOf(body, response.status);
    throw new ApiError(response.status, message, code, body);
  }

  async function apiRequest<T>(
    family: ServiceFamily,
    path: string,
    options: ApiRequestOptions = {},
  ): Promise<T> {
    const response = await send(family, path, options);
    if (response.status === 204) return {} as T;

    const text = await response.text();
    // contract §1.2: a 2xx that is not 204 must carry JSON.
    try {
      if (text) return JSON.parse(text) as T;
    } catch {
      // Falls through to the failure below.
    }
    throw new ApiError(response.status, 'The server sent an unreadable response', null, text);
  }

  /**
   * A GET whose answer is not JSON (contract §1.10: a ticket's attachment, or a capability URL as text),
   * read as a blob under the same rules as every other call.
   */
  async function apiDownload(
    family: ServiceFamily,
    path: string,
    options: Pick<ApiRequestOptions, 'signal'> = {},
  ): Promise<Blob> {
    return (await send(family, path, { signal: options.signal })).blob();
  }

  return { apiRequest, apiDownload };
}

export const { apiRequest, apiDownload } = createApiClient(sessionStore);
