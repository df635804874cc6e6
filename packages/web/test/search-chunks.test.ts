import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRouteModules } from '../build/route-preloads.ts';
import { staticGraph } from './module-graph.ts';

// Issue 38: the ⌘K palette's code stays out of the login page and out of the shell's first chunk (it
// loads on first open), and the search page is its own route module.
const web = path.resolve(import.meta.dirname, '..');
const src = (file: string) => path.join(web, 'src', file);
const relative = (files: Iterable<string>) => [...files].map((file) => path.relative(web, file));
const routes = readRouteModules(path.join(web, 'src/app/router.tsx'), path.join(web, 'src/lib/paths.ts'), [
  path.join(web, 'src/app/list-pages.ts'),
]);

const PALETTE = 'src/features/search/components/command-palette.tsx';

describe('the search chunks', () => {
  it('keep the palette out of the login page and out of the shell until it is opened', () => {
    const login = relative(staticGraph(src('app/routes/auth/login.tsx')));
    expect(login.filter((file) => file.includes('search'))).toEqual([]);
    const shell = relative(staticGraph(src('app/shell/app-shell.tsx')));
    // The shell holds the shortcut and the visit tracking, not the palette or the search itself.
    expect(shell).toContain('src/app/shell/command-palette-host.tsx');
    expect(shell).toContain('src/features/search/visits.ts');
    expect(shell).not.toContain(PALETTE);
    expect(shell.filter((file) => file.includes('features/search/api/'))).toEqual([]);
  });

  it('load the search page as its own route module', () => {
    const search = routes.find((route) => route.pattern === '/search');
    expect(relative(search?.modules ?? [])).toEqual([
      'src/app/shell/app-shell.tsx',
      'src/app/routes/search/index.tsx',
    ]);
    expect(relative(staticGraph(src('app/routes/search/index.tsx')))).not.toContain(PALETTE);
  });
});
