import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { ROUTE_SCOPES } from './scope-table.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
  await t.app.ready();
});
afterAll(() => t.close());

/**
 * Every route Fastify has registered, as "METHOD /path", read from printRoutes' tree: each line is a
 * path segment under its parent (4 characters of indentation per level) with its methods in brackets.
 * HEAD (added for every GET) and OPTIONS (CORS preflight) are not api calls of their own.
 */
function registeredRoutes(printed: string): string[] {
  const routes: string[] = [];
  const parents: string[] = [];
  for (const line of printed.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?\s*$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    const path = (parents[depth - 1] ?? '') + (match[2] ?? '');
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${path}`);
    }
  }
  return routes;
}

/** Path parameters compare by position, not name (`:id`, `:orgId`, `:accountId` are all a parameter). */
function shape(route: string): string {
  return route.replace(/\/:[^/]+/g, '/:').replace(/\/+$/, '');
}

describe('ROUTE_SCOPES, the endpoint-to-scope table', () => {
  it('reads the routes it checks', () => {
    const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false }));
    expect(routes).toContain('GET /api/stacks/:id');
    expect(routes).toContain('POST /auth/tokens');
  });

  it('has an entry for every registered api route, and every entry is registered', () => {
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
      .filter((route) => route.split(' ')[1]?.startsWith('/api/'))
      .map((route) => route.replace(' /api/', ' /'));
    const table = Object.keys(ROUTE_SCOPES);
    const tableShapes = new Set(table.map(shape));
    const registeredShapes = new Set(registered.map(shape));
    const withoutScope = registered.filter((route) => !tableShapes.has(shape(route))).sort();
    const notRegistered = table.filter((route) => !registeredShapes.has(shape(route))).sort();
    expect({ withoutScope, notRegistered }).toEqual({ withoutScope: [], notRegistered: [] });
  });
});
