import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRouteModules } from '../build/route-preloads.ts';
import { staticGraph } from './module-graph.ts';

// Issue 38: each guided deploy screen is its own lazily loaded route module; the shell (and with it
// every other page) loads none of the guided deploy's code.
const web = path.resolve(import.meta.dirname, '..');
const src = (file: string) => path.join(web, 'src', file);
const relative = (files: Iterable<string>) => [...files].map((file) => path.relative(web, file));
const routes = readRouteModules(path.join(web, 'src/app/router.tsx'), path.join(web, 'src/lib/paths.ts'), [
  path.join(web, 'src/app/list-pages.ts'),
]);
const modulesOf = (pattern: string) =>
  relative(routes.find((route) => route.pattern === pattern)?.modules ?? []);

describe('the guided deploy chunks', () => {
  it('load each step as its own route module', () => {
    const screens: [string, string][] = [
      ['/deploy', 'choose-environment'],
      ['/create/deployments', 'create-deployments'],
      ['/apps/:id/get-started', 'get-started'],
      ['/apps/:id/git', 'git'],
      ['/apps/:id/deploy/configure', 'configure'],
      ['/apps/:id/deploy/status', 'status'],
    ];
    for (const [pattern, file] of screens) {
      expect(modulesOf(pattern)).toEqual([
        'src/app/shell/app-shell.tsx',
        `src/app/routes/deploy/${file}.tsx`,
      ]);
    }
  });

  it('keep the guided deploy out of the shell and the login page', () => {
    for (const entry of ['app/shell/app-shell.tsx', 'app/routes/auth/login.tsx']) {
      const loaded = relative(staticGraph(src(entry)));
      expect(loaded.filter((file) => /features\/guided-deploy\/|routes\/deploy\//.test(file))).toEqual([]);
    }
  });
});
