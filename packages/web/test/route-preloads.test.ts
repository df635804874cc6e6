import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRouteModules } from '../build/route-preloads.ts';

// The build reads the router's source to tell the server which code each page loads (issue 11): these
// checks keep that reading true to router.tsx as it changes.
const web = path.resolve(import.meta.dirname, '..');
const routes = readRouteModules(path.join(web, 'src/app/router.tsx'), path.join(web, 'src/lib/paths.ts'), [
  path.join(web, 'src/app/list-pages.ts'),
]);
const modulesOf = (pattern: string) =>
  routes.find((route) => route.pattern === pattern)?.modules.map((id) => path.relative(web, id));

describe('the route table of the build', () => {
  it('reads every route of the router with its path and lazily loaded modules', () => {
    expect(modulesOf('/login')).toEqual(['src/app/routes/auth/login.tsx']);
    expect(modulesOf('/apps')).toEqual(['src/app/shell/app-shell.tsx', 'src/app/routes/apps/list.tsx']);
    expect(modulesOf('/apps/:id/:tab?')).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/apps/detail.tsx',
    ]);
    expect(modulesOf('/settings/profile')).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/settings/layout.tsx',
      'src/app/routes/settings/profile.tsx',
    ]);
    expect(modulesOf('*')).toEqual(['src/app/routes/errors/not-found.tsx']);
  });

  it('knows which routes are behind the session guard', () => {
    const session = (pattern: string) => routes.find((route) => route.pattern === pattern)?.session;
    expect(session('/apps')).toBe(true);
    expect(session('/verify')).toBe(true);
    expect(session('/')).toBe(true);
    expect(session('/login')).toBe(false);
    expect(session('/claim/:inviteId/:code')).toBe(false);
    expect(session('*')).toBe(false);
  });

  it('gives the home path its index route, and every route one entry', () => {
    expect(modulesOf('/')).toEqual(['src/app/shell/app-shell.tsx', 'src/app/routes/home/index-redirect.tsx']);
    const patterns = routes.map((route) => route.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns.length).toBeGreaterThan(50);
  });
});
