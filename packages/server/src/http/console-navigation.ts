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

/** What the console's build writes beside index.html (packages/web/build/prerender.ts). */
export const PRERENDERED_FILE = 'prerendered.json';

/** A page the build rendered: the markup of `<div id="root">` and its route's stylesheets. */
interface PrerenderedPage {
  html: string;
  styles: string[];
}

/** The element the console renders into, as index.html has it (empty until the console's code runs). */
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * Said on a prerendered page (sign-in, sign-up, a password or 2FA reset) a browser posted without the
 * console's code (JavaScript off): tokens live in the console's memory, so it does these itself.
 */
export const NEEDS_JAVASCRIPT =
  'Berth’s console does this with JavaScript, which has not run on this page. Turn JavaScript on (or wait for the page to finish loading) and try again.';

/** What a posted sign-in page is answered with: the message, and the email typed (never the password). */
export interface PostedForm {
  message: string;
  email?: string;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The prerendered markup with a posted form's answer written in: the message as an alert at the top of
 * the form, and the email back in its field. The markup is the build's own (react-dom/server), so its
 * first `<form` and its `name="email"` input are found by position, without a pattern.
 */
export function fillPrerendered(html: string, posted: PostedForm): string {
  let filled = html;
  const emailAt = posted.email ? filled.indexOf('name="email"') : -1;
  const inputAt = emailAt === -1 ? -1 : filled.lastIndexOf('<input', emailAt);
  if (posted.email && inputAt !== -1) {
    const at = inputAt + '<input'.length;
    // Before any attribute React wrote: the first of two same-named attributes is the one that holds.
    filled = `${filled.slice(0, at)} value="${escapeHtml(posted.email)}"${filled.slice(at)}`;
  }
  const formAt = filled.indexOf('<form');
  const formEnd = formAt === -1 ? -1 : filled.indexOf('>', formAt);
  const alert = `<div class="banner banner-error" role="alert"><div class="banner-body"><p class="banner-text">${escapeHtml(posted.message)}</p></div></div>`;
  return formEnd === -1
    ? `${alert}${filled}`
    : `${filled.slice(0, formEnd + 1)}${alert}${filled.slice(formEnd + 1)}`;
}

/** The build's prerendered pages by path, or none when it wrote no table. */
function prerenderedIn(directory: string): Map<string, PrerenderedPage> {
  const file = path.join(directory, PRERENDERED_FILE);
  if (!fs.existsSync(file)) return new Map();
  const table = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, PrerenderedPage>;
  return new Map(
    Object.entries(table).map(([pathname, page]) => [
      pathname,
      { html: page.html, styles: page.styles.filter((href) => /^\/[\w./-]+\.css$/.test(href)) },
    ]),
  );
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
  /** The paths whose page the build prerendered: a signed-out visitor gets their form in the page. */
  prerenderedPaths: string[];
  /** A prerendered page posted without the console's code: the page again, with the answer in it. */
  sendPosted(request: FastifyRequest, reply: FastifyReply, posted: PostedForm, status: number): FastifyReply;
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
  const prerendered = prerenderedIn(path.dirname(indexPath));
  const rootAt = after.indexOf(ROOT_ELEMENT);
  /** The page for a request, its root holding `root` (markup) and its head linking `styles`. */
  const pageOf = (request: FastifyRequest, root: string | null, styles: string[]) => {
    const config = JSON.stringify(runtimeConfig(request)).replaceAll('<', '\\u003c');
    const script = `<script id="${INLINE_CONFIG_ID}" type="application/json">${config}</script>`;
    const links = styles.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('');
    const body =
      root === null || rootAt === -1
        ? after
        : // main.tsx takes over a root marked prerendered, keeping what was typed and the focus.
          `${after.slice(0, rootAt)}<div id="root" data-prerendered>${root}</div>${after.slice(rootAt + ROOT_ELEMENT.length)}`;
    return `${opening}${script}${before}${preloadsOf(request.url, hasSession(request))}${links}${body}`;
  };
  /**
   * The prerendered page of the route the request matched (console-static.ts registers one per page, so
   * the router has decoded and normalized the path), for a visitor without a session; with one, or on
   * any other path, the console decides.
   */
  const prerenderedOf = (request: FastifyRequest) => {
    const route = request.routeOptions.url;
    if (hasSession(request) || route === undefined) return undefined;
    return prerendered.get(route.length > 1 && route.endsWith('/') ? route.slice(0, -1) : route);
  };
  return {
    scriptSources,
    prerenderedPaths: [...prerendered.keys()],
    send(request, reply) {
      const page = prerenderedOf(request);
      reply.header('cache-control', 'no-cache').code(200).type('text/html; charset=utf-8');
      return sendCompressed(request, reply, pageOf(request, page?.html ?? null, page?.styles ?? []));
    },
    sendPosted(request, reply, posted, status) {
      const route = request.routeOptions.url;
      const page = route === undefined ? undefined : prerendered.get(route);
      reply.header('cache-control', 'no-store').code(status).type('text/html; charset=utf-8');
      const root = page ? fillPrerendered(page.html, posted) : null;
      return sendCompressed(request, reply, pageOf(request, root, page?.styles ?? []));
    },
  };
}
