import { vi } from 'vitest';
import { HOST } from './fixtures.ts';

// The one test double: the network boundary. Each route answers with a contract-shaped Response.

export interface RecordedCall {
  method: string;
  /** Path and query relative to the test host, e.g. "/auth/tokens". */
  path: string;
  body: unknown;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
}

type Responder = (call: RecordedCall) => Response | Promise<Response>;

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/hal+json; charset=utf-8' },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/**
 * Routes are "METHOD /path" (path with query string when it matters). A route may be a list of responders,
 * answered in turn (the last one repeats). An unknown request fails the test loudly.
 */
export function mockServer(routes: Record<string, Responder | Responder[]>) {
  const calls: RecordedCall[] = [];
  const counters = new Map<string, number>();
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      HOST,
    );
    const method = (init.method ?? 'GET').toUpperCase();
    const path = `${url.pathname}${url.search}`;
    const call: RecordedCall = {
      method,
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: { ...(init.headers as Record<string, string> | undefined) },
      credentials: init.credentials,
    };
    calls.push(call);
    const key = [`${method} ${path}`, `${method} ${url.pathname}`].find((candidate) => candidate in routes);
    if (!key) throw new Error(`Unexpected request: ${method} ${path}`);
    const route = routes[key];
    if (!route) throw new Error(`No responder for ${key}`);
    if (Array.isArray(route)) {
      const index = counters.get(key) ?? 0;
      counters.set(key, index + 1);
      const responder = route[Math.min(index, route.length - 1)];
      if (!responder) throw new Error(`No responder for ${key}`);
      return responder(call);
    }
    return route(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, pathname: string) =>
      calls.filter((call) => call.method === method && call.path.split('?')[0] === pathname),
  };
}
