import { trimEndChar } from '@berth/core';
// The routes a built server has registered, for tests that hold every route to a rule.

/**
 * Every route Fastify has registered, as "METHOD /path", read from printRoutes' tree: each line is a
 * path segment under its parent (4 characters of indentation per level) with its methods in brackets.
 * HEAD (added for every GET) and OPTIONS (CORS preflight) are not api calls of their own.
 */
export function registeredRoutes(printed: string): string[] {
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

/** Path parameters compare by position, not name (`:id`, `:orgId` are both a parameter). */
export const routeShape = (route: string) => trimEndChar(route.replace(/\/:[^/]+/g, '/:'), '/');
