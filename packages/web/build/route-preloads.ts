import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { Plugin } from 'vite';

/** What the build writes beside index.html, and the server reads (packages/server/src/http/console-navigation.ts). */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** One console route: its path pattern (React Router's syntax) and the modules it lazily loads. */
export interface RouteModules {
  pattern: string;
  /** Absolute module ids: the layouts' above it, then its own. */
  modules: string[];
  /** Behind the session guard (`Component: RequireSession`): a signed-out visitor is sent to /login. */
  session: boolean;
}

/** The guard component of router.tsx whose routes need a session. */
const SESSION_GUARD = 'RequireSession';

/** `{…} as const` and `{…} satisfies T` are the object itself. */
function unwrap(expression: ts.Expression): ts.Expression {
  return ts.isAsExpression(expression) || ts.isSatisfiesExpression(expression)
    ? unwrap(expression.expression)
    : expression;
}

/** The string values of the `paths` object in lib/paths.ts, by key. */
function readPaths(file: string): Map<string, string> {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map<string, string>();
  const visit = (node: ts.Node) => {
    const initializer =
      ts.isVariableDeclaration(node) && node.name.getText() === 'paths' && node.initializer
        ? unwrap(node.initializer)
        : undefined;
    if (initializer && ts.isObjectLiteralExpression(initializer)) {
      for (const property of initializer.properties) {
        if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer)) {
          found.set(property.name.getText(), property.initializer.text);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function property(object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const entry of object.properties) {
    if (ts.isPropertyAssignment(entry) && entry.name.getText() === name) return entry.initializer;
  }
  return undefined;
}

/** The module a `lazy: () => import('./x.tsx')` (or `async () => … await import('./x.tsx') …`) loads. */
function lazyModule(lazy: ts.Expression | undefined): string | undefined {
  if (!lazy) return undefined;
  let specifier: string | undefined;
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      specifier ??= node.arguments[0].text;
    }
    ts.forEachChild(node, visit);
  };
  visit(lazy);
  return specifier;
}

/**
 * Every route of the router file (`appRoutes`), read from its source: `path: paths.x` or a string, and
 * `lazy` imports, with the modules of the layouts (routes without a path) above each route.
 */
export function readRouteModules(
  routerFile: string,
  pathsFile: string,
  /** Files that declare objects of loaders the router names (`lazy: listPages.apps`). */
  loaderFiles: string[] = [],
): RouteModules[] {
  const paths = readPaths(pathsFile);
  const source = ts.createSourceFile(
    routerFile,
    fs.readFileSync(routerFile, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TSX,
  );
  const routes: RouteModules[] = [];
  const resolve = (specifier: string) => path.resolve(path.dirname(routerFile), specifier);
  // `lazy: listPages.apps`: a property of an object of loaders, declared here or in a loader file.
  const loaders = new Map<string, { object: ts.ObjectLiteralExpression; directory: string }>();
  const collect = (file: ts.SourceFile) => {
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && node.initializer) {
        const value = unwrap(node.initializer);
        if (ts.isObjectLiteralExpression(value)) {
          loaders.set(node.name.getText(), { object: value, directory: path.dirname(file.fileName) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  };
  collect(source);
  for (const file of loaderFiles) {
    collect(ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true));
  }
  /** The absolute id of the module a route loads lazily, if it does. */
  const lazyOf = (route: ts.ObjectLiteralExpression): string | undefined => {
    const lazy = property(route, 'lazy');
    if (lazy && ts.isPropertyAccessExpression(lazy) && ts.isIdentifier(lazy.expression)) {
      const loader = loaders.get(lazy.expression.text);
      const specifier = lazyModule(loader && property(loader.object, lazy.name.text));
      return loader && specifier ? path.resolve(loader.directory, specifier) : undefined;
    }
    const specifier = lazyModule(lazy);
    return specifier ? resolve(specifier) : undefined;
  };

  const walk = (
    list: ts.ArrayLiteralExpression,
    inherited: string[],
    parentPattern: string | undefined,
    guarded: boolean,
  ) => {
    for (const element of list.elements) {
      if (!ts.isObjectLiteralExpression(element)) continue;
      const pathValue = property(element, 'path');
      let pattern: string | undefined;
      if (pathValue && ts.isStringLiteral(pathValue)) pattern = pathValue.text;
      else if (pathValue && ts.isPropertyAccessExpression(pathValue))
        pattern = paths.get(pathValue.name.text);
      // An index route is what its parent's path shows.
      else if (property(element, 'index')?.kind === ts.SyntaxKind.TrueKeyword) pattern = parentPattern;
      const own = lazyOf(element);
      const modules = own ? [...inherited, own] : inherited;
      const component = property(element, 'Component');
      const session = guarded || (component !== undefined && component.getText() === SESSION_GUARD);
      if (pattern) {
        // The deepest entry for a path wins: an index route over the bare parent it sits in.
        const at = routes.findIndex((route) => route.pattern === pattern);
        if (at === -1) routes.push({ pattern, modules, session });
        else if (modules.length >= (routes[at]?.modules.length ?? 0))
          routes[at] = { pattern, modules, session };
      }
      const children = property(element, 'children');
      if (children && ts.isArrayLiteralExpression(children)) {
        walk(children, modules, pattern ?? parentPattern, session);
      }
    }
  };
  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      node.name.getText() === 'appRoutes' &&
      node.initializer &&
      ts.isArrayLiteralExpression(node.initializer)
    ) {
      walk(node.initializer, [], undefined, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return routes;
}

/**
 * Writes route-preloads.json: for each console route pattern, the JavaScript files its lazy modules need
 * (their chunks and every chunk those import), less what index.html loads anyway. The server names them
 * as `<link rel="modulepreload">` in the page it sends for that path, so the browser fetches a page's
 * code while it still loads the entry, instead of after it (one round of requests less before a page
 * shows).
 */
export function routePreloads(options: {
  routerFile: string;
  pathsFile: string;
  loaderFiles?: string[];
}): Plugin {
  return {
    name: 'berth-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // A lazily loaded module is the facade of its own chunk, or (grouped by codeSplitting) one of a
      // shared chunk's modules.
      const byModule = new Map(chunks.flatMap((chunk) => chunk.moduleIds.map((id) => [id, chunk] as const)));
      for (const chunk of chunks) if (chunk.facadeModuleId) byModule.set(chunk.facadeModuleId, chunk);
      const closure = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        for (const imported of byFile.get(fileName)?.imports ?? []) closure(imported, into);
      };
      const entry = new Set<string>();
      for (const chunk of chunks) if (chunk.isEntry) closure(chunk.fileName, entry);

      const table = readRouteModules(options.routerFile, options.pathsFile, options.loaderFiles).map(
        ({ pattern, modules, session }) => {
          const files = new Set<string>();
          for (const id of modules) {
            const chunk = byModule.get(id);
            if (!chunk) this.error(`route-preloads: no chunk for ${id} (route ${pattern})`);
            closure(chunk.fileName, files);
          }
          const own = [...files].filter((file) => !entry.has(file)).map((file) => `/${file}`);
          return { pattern, session, files: own };
        },
      );
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(table) });
    },
  };
}
