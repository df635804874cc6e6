import { serviceUrl } from '../../../lib/api-client.ts';
import { sessionStore } from '../../../lib/session-store.ts';

/** contract §1.10: the capability URL is fetched up to 5 more times when it answers non-2xx. */
export const LOG_FETCH_RETRIES = 5;

export class LogFetchError extends Error {
  override name = 'LogFetchError';
}

/**
 * GET /operations/{id}/logs answers a URL as text; the log text behind it is read with a plain fetch,
 * without auth header or cookies. A failure carries the response text as its message (spec 2 §8).
 */
export async function fetchOperationLogs(
  operationId: string,
  options: { signal?: AbortSignal; retryDelayMs?: number } = {},
): Promise<string> {
  const token = sessionStore.getState().accessToken;
  const headers: Record<string, string> = { 'Content-Type': 'application/hal+json' };
  if (token) headers.Authorization = `Bearer ${token.accessToken}`;
  const answer = await fetch(serviceUrl('api', `/operations/${operationId}/logs`), {
    headers,
    credentials: 'include',
    signal: options.signal,
  });
  const urlText = await answer.text();
  if (!answer.ok) throw new LogFetchError(failureTextOf(urlText, answer.status));

  const url = urlText.trim();
  let lastError = '';
  for (let attempt = 0; attempt <= LOG_FETCH_RETRIES; attempt += 1) {
    if (attempt > 0) await delay(options.retryDelayMs ?? 1000 * attempt, options.signal);
    const response = await fetch(url, { credentials: 'omit', signal: options.signal });
    const text = await response.text();
    if (response.ok) return text;
    lastError = text || `Request failed with status ${response.status}`;
  }
  throw new LogFetchError(lastError);
}

function failureTextOf(text: string, status: number): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON: the text itself is the message
  }
  return text || `Request failed with status ${status}`;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
