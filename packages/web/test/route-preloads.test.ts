import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRouteModules, routePreloads } from '../build/route-preloads.ts';

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
    expect(modulesOf('/')).toEqual(['src/app/shell/app-shell.tsx', 'src/app/routes/home/home.tsx']);
    expect(modulesOf('/home-beta')).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/home/home-beta.tsx',
    ]);
    const patterns = routes.map((route) => route.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect(patterns.length).toBeGreaterThan(50);
  });
});

describe('the preloads the build writes', () => {
  it("names each route's chunks and what they import, less the entry's", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-preloads-'));
    const file = (name: string, text = '') => {
      fs.writeFileSync(path.join(dir, name), text);
      return path.join(dir, name);
    };
    const pathsFile = file('paths.ts', "export const paths = { login: '/login', apps: '/apps' };");
    const routerFile = file(
      'router.tsx',
      `export const appRoutes = [{ path: '/', children: [
        { path: paths.login, lazy: () => import('./login.tsx') },
        { Component: RequireSession, children: [
          { lazy: async () => ({ Component: (await import('./shell.tsx')).AppShell }), children: [
            { path: paths.apps, lazy: () => import('./apps.tsx') },
          ] },
        ] },
      ] }];`,
    );
    const chunk = (fileName: string, module: string | null, imports: string[] = [], isEntry = false) => ({
      type: 'chunk' as const,
      fileName,
      moduleIds: module ? [path.join(dir, module)] : [],
      facadeModuleId: module ? path.join(dir, module) : null,
      imports,
      isEntry,
    });
    const bundle = Object.fromEntries(
      [
        chunk('assets/index.js', 'main.tsx', ['assets/react.js'], true),
        chunk('assets/react.js', null),
        chunk('assets/login.js', 'login.tsx', ['assets/react.js']),
        chunk('assets/shell.js', 'shell.tsx', ['assets/table.js']),
        chunk('assets/table.js', null),
        chunk('assets/apps.js', 'apps.tsx', ['assets/table.js']),
      ].map((item) => [item.fileName, item]),
    );
    const emitted: { fileName: string; source: string }[] = [];
    const plugin = routePreloads({ routerFile, pathsFile });
    const context = {
      emitFile: (emittedFile: { fileName: string; source: string }) => emitted.push(emittedFile),
      error: (message: string) => {
        throw new Error(message);
      },
    };
    (
      plugin.generateBundle as unknown as (this: typeof context, options: unknown, bundle: unknown) => void
    ).call(context, {}, bundle);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(emitted.map((item) => item.fileName)).toEqual(['route-preloads.json']);
    expect(JSON.parse(emitted[0]?.source ?? '')).toEqual([
      { pattern: '/', session: false, files: [] },
      { pattern: '/login', session: false, files: ['/assets/login.js'] },
      {
        pattern: '/apps',
        session: true,
        files: ['/assets/shell.js', '/assets/table.js', '/assets/apps.js'],
      },
    ]);
  });
});
