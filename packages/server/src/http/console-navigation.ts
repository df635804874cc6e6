import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { sendCompressed } from './compression.ts';

/**
 * A browser opening a page: GET or HEAD that accepts HTML and asks for no API type. The console's own
 * API calls (fetch, `Accept: *\/*` or JSON) never qualify, so they keep their family's JSON answers.
 */
export function isBrowserNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = (request.headers.accept ?? '').toLowerCase();
  return accept.includes('text/html') && !accept.includes('application/json') && !accept.includes('+json');
}

/** What the console reads at start (the body of GET /config.json), for one request. */
export type RuntimeConfigOf = (request: FastifyRequest) => Record<string, unknown>;

/** The element the console reads its runtime config from (packages/web/src/lib/config.ts). */
export const INLINE_CONFIG_ID = 'berth-config';

/** What the console's build writes beside index.html (packages/web/build/route-preloads.ts). */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

interface RoutePreloads {
  pattern: string;
  files: string[];
  /** Behind the console's session guard. */
  session?: boolean;
}

/** Where the console's session guard sends a visitor without a session. */
const LOGIN_PATH = '/login';

/**
 * For a console path, `<link rel="modulepreload">` tags naming the code its page loads lazily (the
 * build's route table), so the browser fetches it beside the entry instead of after it. Nothing when the
 * build wrote no table or the path matches no route. Patterns use React Router's syntax, which
 * find-my-way (Fastify's own router) reads the same way: `:param`, a last `:param?`, `*`.
 */
function routePreloadsIn(directory: string): (url: string, signedIn: boolean) => string {
  const file = path.join(directory, ROUTE_PRELOADS_FILE);
  if (!fs.existsSync(file)) return () => '';
  const table = JSON.parse(fs.readFileSync(file, 'utf8')) as RoutePreloads[];
  const tagsOf = (files: string[]) =>
    files
      .filter((href) => /^\/[\w./-]+$/.test(href))
      .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
      .join('');
  const login = tagsOf(table.find((route) => route.pattern === LOGIN_PATH)?.files ?? []);
  const router = FindMyWay({ ignoreTrailingSlash: true });
  for (const { pattern, files, session } of table) {
    router.on('GET', pattern, () => {}, { tags: tagsOf(files), session: session === true });
  }
  return (url, signedIn) => {
    const pathname = url.split('?')[0] ?? '/';
    const found = router.find('GET', pathname)?.store as { tags: string; session: boolean } | undefined;
    if (!found) return '';
    // Without a session, a page behind the guard becomes the login page: its code is what loads.
    return found.session && !signedIn ? login : found.tags;
  };
}

/** The console's index.html, for client-side routes: the console decides what to show, 404 included. */
export interface ConsoleDocument {
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply;
  /** CSP sources (`'sha256-…'`) of the scripts written into the page, for script-src. */
  scriptSources: string[];
}

/**
 * The page's classic scripts written into it: `<script src="/theme.js"></script>` (the theme applied
 * before the first paint) and `/early.js` (the start-up calls sent while the console's modules load; it
 * reads the runtime config, written before the head's first script). Both come before the stylesheets,
 * which a classic script would otherwise wait for. Such a script blocks the page until it has arrived,
 * and a file that is not fingerprinted is asked for again at every load; inline it costs nothing, and
 * the CSP allows it by its hash alone. A file that is missing, or could end the element early, stays a
 * file.
 */
function inlineClassicScripts(html: string, directory: string): { html: string; scriptSources: string[] } {
  const scriptSources: string[] = [];
  const inlined = html.replace(/<script src="\/([\w.-]{1,100}\.js)"><\/script>/g, (tag, name: string) => {
    const file = path.join(directory, name);
    if (!fs.existsSync(file)) return tag;
    // The browser hashes the text as parsed, where every line break is a line feed.
    const code = fs.readFileSync(file, 'utf8').replace(/\r\n?/g, '\n');
    if (/<\/script|<!--/i.test(code)) return tag;
    scriptSources.push(`'sha256-${createHash('sha256').update(code, 'utf8').digest('base64')}'`);
    return `<script>${code}</script>`;
  });
  return { html: inlined, scriptSources };
}

/**
 * The built index.html with the runtime config written into it, so the console starts without asking
 * for /config.json first: one round trip less before the first paint. A JSON data block is not a
 * script the browser runs, so the CSP's no-inline-script rule does not apply to it; `<` is escaped so
 * no value can close the element. The page's own code is named for preloading (routePreloadsIn). Read once: a rebuilt console needs a restarted server anyway, as its
 * new files are only served then.
 */
export function consoleDocument(
  indexPath: string,
  runtimeConfig: RuntimeConfigOf,
  /** Whether the request carries a session (its cookie): picks the login page's preloads otherwise. */
  hasSession: (request: FastifyRequest) => boolean = () => true,
): ConsoleDocument {
  const page = fs.readFileSync(indexPath, 'utf8');
  // Where the config and preloads go is found in the page as built, before any script is written in.
  const headEnd = page.indexOf('</head>');
  const [head, rest] = headEnd === -1 ? ['', page] : [page.slice(0, headEnd), page.slice(headEnd)];
  const inlinedHead = inlineClassicScripts(head, path.dirname(indexPath));
  const inlinedBody = inlineClassicScripts(rest, path.dirname(indexPath));
  const scriptSources = [...inlinedHead.scriptSources, ...inlinedBody.scriptSources];
  // The config goes before the head's first script, so that the start script there can read it.
  const firstScript = inlinedHead.html.indexOf('<script');
  const configAt = firstScript === -1 ? inlinedHead.html.length : firstScript;
  const [opening, before, after] = [
    inlinedHead.html.slice(0, configAt),
    inlinedHead.html.slice(configAt),
    inlinedBody.html,
  ];
  const preloadsOf = routePreloadsIn(path.dirname(indexPath));
  return {
    scriptSources,
    send(request, reply) {
      const config = JSON.stringify(runtimeConfig(request)).replaceAll('<', '\\u003c');
      const script = `<script id="${INLINE_CONFIG_ID}" type="application/json">${config}</script>`;
      const page = `${opening}${script}${before}${preloadsOf(request.url, hasSession(request))}${after}`;
      reply.header('cache-control', 'no-cache').code(200).type('text/html; charset=utf-8');
      return sendCompressed(request, reply, page);
    },
  };
}
