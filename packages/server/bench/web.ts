/**
 * The console's speed in Chromium (issue 11; not a test): `npm run bench:web`.
 *
 * 1. Start-up: the server (this tree, the built console) on an empty data directory, as `npm start`
 *    runs it: time until it answers, and its resident memory once idle.
 * 2. A seeded organization (bench/seed.ts: 5000 apps, 5000 services, 5000 databases, 20000
 *    operations) in a fresh PGlite data directory, or in a throwaway PostgreSQL database when
 *    BENCH_DATABASE_URL is set, served by a server process of its own.
 * 3. Chromium (Playwright, /usr/bin/chromium or CHROMIUM_PATH) measures, RUNS times each (median):
 *    - /login: time to the email field, first contentful paint, whether the field is in that paint,
 *      JavaScript and CSS bytes as transferred, requests;
 *    - /apps, /environments, /activity as a full page load signed in (a new browser context, so no
 *      cached assets): time to rows, with its breakdown (HTML, scripts, the session check, the rows'
 *      call, the first render, the sidebar: see Breakdown), and time until the search box answers;
 *    - moving between list pages from the sidebar once start-up data is in (environments → apps →
 *      services): time from the click to rows;
 *    - scrolling the 5000-row /apps page to its end: the longest task.
 * BENCH_RUNS sets the runs (5); BENCH_WEB_ONLY=start,login,lists,moves,scroll picks measures, and
 * BENCH_WEB_ONLY=serve only seeds and serves, to look closer by hand; BENCH_WEB_DUMP=1 prints each first
 * visit's calls with their times.
 * Times come from the page's own clock (performance.now(), from navigation start), noted by a
 * MutationObserver the moment the element exists.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { systemChromium } from '../../../scripts/chromium.mjs';
import { BENCH_PASSWORD, STANDARD_SIZE, seededServer } from './seed.ts';
import { median, residentMb, root, startServer, stopServer } from './server.ts';

/** What the functions run in the page use of it (this package is typed for Node, without the DOM). */
interface PageGlobals {
  __marks: Record<string, number>;
  __watch: [string, string][];
  __longest: number;
  location: { href: string };
  document: {
    querySelectorAll(
      selector: string,
    ): ArrayLike<{ closest(selector: string): { textContent: string | null } | null }>;
  };
}

/** What the sidebar moves' page functions use (see measureMoves). */
interface MoveGlobals {
  __moveFrom: number;
  __moveTo: number;
  performance: { now(): number };
  MutationObserver: new (
    callback: (records: unknown, observer: { disconnect(): void }) => void,
  ) => { observe(target: unknown, options: { subtree: boolean; childList: boolean }): void };
  document: {
    querySelector(selector: string): unknown;
    addEventListener(type: string, listener: () => void, options: { capture: boolean; once: boolean }): void;
  };
}

const RUNS = Number.parseInt(process.env.BENCH_RUNS ?? '5', 10);
/** Step 1: a fresh data directory each time; memory read after ten idle seconds. */
async function measureStartUp(): Promise<{ startMs: number; idleMb: number }> {
  const starts: number[] = [];
  const idle: number[] = [];
  for (let run = 0; run < 3; run += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'berth-bench-start-'));
    try {
      const served = await startServer({ BERTH_DATA_DIR: dataDir });
      starts.push(served.startMs);
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      idle.push(residentMb(served.process.pid as number));
      await stopServer(served);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return { startMs: median(starts), idleMb: median(idle) };
}

/** Notes in window.__marks the page-clock time at which each watched selector first matches. */
const WATCH_SCRIPT = `
  window.__marks = {};
  window.__watch = [];
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
  }).observe({ type: 'longtask', buffered: true });
  const check = () => {
    for (const [name, selector] of window.__watch) {
      if (window.__marks[name] === undefined && document.querySelector(selector)) {
        window.__marks[name] = performance.now();
      }
    }
  };
  window.__check = check;
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
`;

async function watch(page: Page, marks: Record<string, string>): Promise<void> {
  await page.addInitScript(`${WATCH_SCRIPT}\nwindow.__watch = ${JSON.stringify(Object.entries(marks))};`);
}

async function markOf(page: Page, name: string, timeoutMs = 30_000): Promise<number> {
  const handle = await page.waitForFunction(
    (key) => (globalThis as unknown as PageGlobals).__marks[key],
    name,
    { timeout: timeoutMs, polling: 10 },
  );
  return (await handle.jsonValue()) as number;
}

interface LoginRun {
  emailMs: number;
  fcpMs: number;
  inFirstPaint: boolean;
  jsKb: number;
  cssKb: number;
  requests: number;
}

async function measureLogin(browser: Browser, url: string): Promise<LoginRun> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await watch(page, { email: 'input[type="email"]' });
    await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
    const emailMs = await markOf(page, 'email');
    const timing = await page.evaluate(() => {
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const resources = performance.getEntriesByType('resource') as unknown as {
        name: string;
        transferSize: number;
      }[];
      // No named functions here: tsx would wrap them in a helper the page does not have.
      let js = 0;
      let css = 0;
      for (const entry of resources) {
        const file = new URL(entry.name).pathname;
        if (file.endsWith('.js')) js += entry.transferSize;
        if (file.endsWith('.css')) css += entry.transferSize;
      }
      return { fcp: paint ? paint.startTime : Number.NaN, js, css, requests: resources.length + 1 };
    });
    return {
      emailMs,
      fcpMs: timing.fcp,
      // The field exists before the first contentful paint is taken: it is part of it.
      inFirstPaint: emailMs <= timing.fcp,
      jsKb: timing.js / 1024,
      cssKb: timing.css / 1024,
      requests: timing.requests,
    };
  } finally {
    await context.close();
  }
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Signs in through the login form once; every later context starts from this state. */
async function signIn(browser: Browser, url: string, email: string): Promise<StorageState> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${url}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(BENCH_PASSWORD);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL((target) => target.pathname !== '/login', { timeout: 30_000 });
  await page.getByRole('navigation').first().waitFor({ timeout: 30_000 });
  const state = await context.storageState();
  await context.close();
  return state;
}

interface ListPage {
  path: string;
  /** A row of the seeded data. */
  row: string;
  /** The start of the address of the call that brings the rows (the breakdown times it). */
  rowsCall: string;
  /** What the page searches or filters by: the query-string parameter it sets, and the value. */
  param: string;
  term: string;
  /** Types the search or picks the filter. */
  ask(page: Page, term: string): Promise<void>;
}

const search = (page: Page, term: string) => page.getByRole('searchbox').first().fill(term);

const LIST_PAGES: ListPage[] = [
  {
    path: '/apps',
    row: 'tbody a[href^="/apps/"]',
    rowsCall: '/api/apps?',
    param: 'search',
    term: 'app-4321',
    ask: search,
  },
  {
    path: '/environments',
    row: 'tbody a[href^="/environments/"]',
    rowsCall: '/api/accounts?',
    param: 'search',
    term: 'env-7',
    ask: search,
  },
  // Activity pages on the server and filters instead of searching: the Status filter answers here.
  {
    path: '/activity',
    row: 'tbody tr td a',
    rowsCall: '/api/organizations/',
    param: 'operation_status',
    term: 'failed',
    ask: async (page, term) => {
      await page.getByLabel('Status').selectOption(term);
    },
  },
];

/**
 * Where a first visit's time goes, each on the page's clock from navigation start: the HTML received,
 * the console's scripts received (the last of those asked for before the rows showed, with their
 * count and size as transferred), the session check answered, the rows' own call sent and answered, the
 * console's first render (anything in the root), the shell's sidebar, and the rows.
 */
interface Breakdown {
  htmlMs: number;
  scriptsMs: number;
  scripts: number;
  scriptsKb: number;
  sessionMs: number;
  rowsCallStartMs: number;
  rowsCallEndMs: number;
  firstRenderMs: number;
  shellMs: number;
}

interface ListRun {
  rowsMs: number;
  breakdown: Breakdown;
  searchMs: number;
  /** The same page opened again in the same browser: its code comes from the browser's cache. */
  returnRowsMs: number;
}

async function measureList(
  browser: Browser,
  url: string,
  state: StorageState,
  list: ListPage,
): Promise<ListRun> {
  const context = await browser.newContext({ storageState: state });
  try {
    const page = await context.newPage();
    await watch(page, { rows: list.row, firstRender: '#root > *', shell: 'nav' });
    const calls = recordCalls(page);
    await page.goto(`${url}${list.path}`);
    const rowsMs = await markOf(page, 'rows');
    const breakdown = await breakdownOf(page, rowsMs, list.rowsCall, calls);
    const before = await page.evaluate(() => performance.now());
    await list.ask(page, list.term).catch(async (error) => {
      await page.screenshot({ path: path.join(tmpdir(), 'berth-bench-failure.png') });
      throw error;
    });
    // Answered: the term is in the query string (after any debounce) and every row shows it.
    await page.waitForFunction(
      ({ param, term, selector }) => {
        const { location, document } = globalThis as unknown as PageGlobals;
        const found = Array.from(document.querySelectorAll(selector));
        return (
          new URL(location.href).searchParams.get(param) === term &&
          found.length > 0 &&
          found.every((element) => element.closest('tr')?.textContent?.toLowerCase().includes(term))
        );
      },
      { param: list.param, term: list.term, selector: list.row },
      { polling: 10, timeout: 30_000 },
    );
    const after = await page.evaluate(() => performance.now());
    // The run's start-up lists finish before the next page load: leaving the page would not stop the
    // server's work on them, and each load is measured as one user's page load on a quiet server.
    await page.waitForLoadState('networkidle');
    // A return visit (a signed-in user opening the console again, or reloading): the hashed code is
    // cached for a year, so only the page and the API calls go to the server.
    // (The page's init script from watch() runs at every navigation.)
    await page.goto('about:blank');
    await page.goto(`${url}${list.path}`);
    const returnRowsMs = await markOf(page, 'rows');
    await page.waitForLoadState('networkidle');
    return { rowsMs, breakdown, searchMs: after - before, returnRowsMs };
  } finally {
    await context.close();
  }
}

/** A call of the page or of its start worker, on the machine's clock (ms since the epoch). */
interface Call {
  address: URL;
  startEpochMs: number;
  endEpochMs: number;
}

/**
 * Every call a page and its workers make, as answered. The page's resource timings hold only its own:
 * the start-up calls leave from the start worker (packages/web/src/app/early-worker.ts), which keeps its
 * timings to itself and closes.
 */
function recordCalls(page: Page): Call[] {
  const calls: Call[] = [];
  page.on('requestfinished', (request) => {
    const timing = request.timing();
    calls.push({
      address: new URL(request.url()),
      startEpochMs: timing.startTime,
      endEpochMs: timing.startTime + timing.responseEnd,
    });
  });
  return calls;
}

/**
 * The first visit's breakdown (see Breakdown), read once rows show: the HTML and scripts from the page's
 * resource timings, the calls from the browser's (recordCalls), on the page's clock.
 */
async function breakdownOf(page: Page, rowsMs: number, rowsCall: string, calls: Call[]): Promise<Breakdown> {
  const marks = await page.evaluate(() => (globalThis as unknown as PageGlobals).__marks);
  const timing = await page.evaluate(
    ({ rowsMs }) => {
      const navigation = performance.getEntriesByType('navigation')[0] as unknown as { responseEnd: number };
      const resources = performance.getEntriesByType('resource') as unknown as {
        name: string;
        startTime: number;
        responseEnd: number;
        transferSize: number;
      }[];
      // No named functions here: tsx would wrap them in a helper the page does not have.
      let scriptsMs = 0;
      let scripts = 0;
      let scriptsBytes = 0;
      for (const entry of resources) {
        if (new URL(entry.name).pathname.endsWith('.js') && entry.startTime < rowsMs) {
          scriptsMs = Math.max(scriptsMs, entry.responseEnd);
          scripts += 1;
          scriptsBytes += entry.transferSize;
        }
      }
      return {
        htmlMs: navigation.responseEnd,
        scriptsMs,
        scripts,
        scriptsKb: scriptsBytes / 1024,
        timeOrigin: performance.timeOrigin,
      };
    },
    { rowsMs },
  );
  const everything = calls
    .map((call) => ({
      ...call,
      startMs: call.startEpochMs - timing.timeOrigin,
      endMs: call.endEpochMs - timing.timeOrigin,
    }))
    .sort((a, b) => a.startMs - b.startMs);
  const apiCalls = everything.filter((call) => !/\.(js|css)$/.test(call.address.pathname));
  const session = apiCalls.find((call) => call.address.pathname === '/auth/current_token');
  const rows = apiCalls.find((call) => `${call.address.pathname}${call.address.search}`.startsWith(rowsCall));
  // BENCH_WEB_DUMP=1: every call of each first visit, from its start to its answer (ms from navigation);
  // `all`: its files too.
  if (process.env.BENCH_WEB_DUMP) {
    const lines = (process.env.BENCH_WEB_DUMP === 'all' ? everything : apiCalls).map(
      (call) =>
        `${Math.round(call.startMs)} → ${Math.round(call.endMs)} ${call.address.pathname}${call.address.search}`,
    );
    console.log(
      `first visit, rows at ${Math.round(rowsMs)} ms, marks ${JSON.stringify(marks)}\n  ${lines.join('\n  ')}`,
    );
  }
  const { timeOrigin: _, ...files } = timing;
  return {
    ...files,
    sessionMs: session?.endMs ?? Number.NaN,
    rowsCallStartMs: rows?.startMs ?? Number.NaN,
    rowsCallEndMs: rows?.endMs ?? Number.NaN,
    firstRenderMs: marks.firstRender ?? Number.NaN,
    shellMs: marks.shell ?? Number.NaN,
  };
}

/** One line of medians: where a list page's first visits spent their time. */
function breakdownLine(runs: Breakdown[]): string {
  const of = (key: keyof Breakdown) => fmt(median(runs.map((run) => run[key])));
  return [
    `HTML ${of('htmlMs')}`,
    `scripts ${of('scriptsMs')} (${of('scripts')} files, ${of('scriptsKb')} KB)`,
    `session ${of('sessionMs')}`,
    `rows' call ${of('rowsCallStartMs')} → ${of('rowsCallEndMs')}`,
    `first render ${of('firstRenderMs')}`,
    `sidebar ${of('shellMs')}`,
  ].join(' · ');
}

interface MoveRun {
  apps: number;
  services: number;
}

/** Sidebar clicks once the start-up lists are in: environments → apps → services. */
async function measureMoves(browser: Browser, url: string, state: StorageState): Promise<MoveRun> {
  const context = await browser.newContext({ storageState: state });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/environments`);
    await page.locator('tbody a[href^="/environments/"]').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    // Timed by the page's own clock, from the click event to the first row in the document, as the
    // navigations are: the test driver's own round trips (finding the link, polling) are not the user's.
    const move = async (name: string, selector: string) => {
      await page.evaluate((rowSelector) => {
        const { document, performance, MutationObserver } = globalThis as unknown as MoveGlobals;
        const marks = globalThis as unknown as MoveGlobals;
        marks.__moveFrom = 0;
        marks.__moveTo = 0;
        // Inline: a named function here would carry the bundler's __name helper, unknown in the page.
        document.addEventListener(
          'click',
          () => {
            marks.__moveFrom = performance.now();
            new MutationObserver((_records, observer) => {
              if (!document.querySelector(rowSelector)) return;
              marks.__moveTo = performance.now();
              observer.disconnect();
            }).observe(document, { subtree: true, childList: true });
          },
          { capture: true, once: true },
        );
      }, selector);
      await page.getByRole('navigation').getByRole('link', { name, exact: true }).click();
      const handle = await page.waitForFunction(
        () => {
          const marks = globalThis as unknown as MoveGlobals;
          return marks.__moveTo > 0 ? marks.__moveTo - marks.__moveFrom : null;
        },
        null,
        { timeout: 30_000, polling: 10 },
      );
      return (await handle.jsonValue()) as number;
    };
    const apps = await move('Apps', 'tbody a[href^="/apps/"]');
    const services = await move('Services', 'tbody a[href*="/services/"]');
    return { apps, services };
  } finally {
    await context.close();
  }
}

/** The 5000-row page of /apps scrolled to its end by the wheel: the longest task meanwhile. */
async function measureScroll(browser: Browser, url: string, state: StorageState): Promise<number> {
  const context = await browser.newContext({ storageState: state, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await watch(page, {});
    await page.goto(`${url}/apps?rows=5000`);
    await page.locator('tbody a[href^="/apps/"]').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).__longest = 0;
    });
    await page.mouse.move(700, 500);
    // Rows are measured, and a row whose last operation failed is taller (its reason under the handle):
    // the wheel goes on until the oldest app (id 1), the last row, is in, so the whole 5000 scroll by.
    const lastRow = page.locator('tbody a[href="/apps/1"]');
    for (let step = 0; step < 400 && !(await lastRow.isVisible()); step += 1) {
      await page.mouse.wheel(0, 1500);
      await page.waitForTimeout(16);
    }
    await page.waitForTimeout(300);
    await lastRow.waitFor({ timeout: 5000 });
    return page.evaluate(() => (globalThis as unknown as PageGlobals).__longest);
  } finally {
    await context.close();
  }
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function main() {
  console.log('Building the console and the server (npm run build)…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
  if (build.status !== 0) throw new Error('npm run build failed');

  const only = new Set((process.env.BENCH_WEB_ONLY ?? 'start,login,lists,moves,scroll').split(','));
  const rows: string[] = [];
  const report = (measure: string, value: string, target: string) => {
    const row = `| ${measure} | ${value} | ${target} |`;
    rows.push(row);
    console.log(row);
  };
  const of = <T>(runs: T[], key: keyof T) => median(runs.map((run) => run[key] as number));

  if (only.has('start')) {
    console.log('Starting the server on empty data directories…');
    const startUp = await measureStartUp();
    report('server start, empty data directory', `${fmt(startUp.startMs)} ms`, '< 3000 ms');
    report('server idle resident memory', `${fmt(startUp.idleMb)} MB`, '< 200 MB');
  }

  const { served, email, cleanup } = await seededServer(STANDARD_SIZE, process.env.BENCH_DATABASE_URL);
  if (only.has('serve')) {
    // For looking closer by hand: the seeded server stays up until Ctrl-C.
    console.log(`Serving ${served.url} (sign in as ${email} / ${BENCH_PASSWORD}); Ctrl-C stops it.`);
    await new Promise((resolve) => process.once('SIGINT', resolve));
    await cleanup();
    return;
  }
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch(systemChromium);
    if (only.has('login')) {
      const logins: LoginRun[] = [];
      for (let run = 0; run < RUNS + 1; run += 1) logins.push(await measureLogin(browser, served.url));
      logins.shift(); // the first run warms the server's file cache
      report('/login: email field', `${fmt(of(logins, 'emailMs'))} ms`, 'at first paint');
      report('/login: first contentful paint', `${fmt(of(logins, 'fcpMs'))} ms`, '');
      const inPaint = logins.filter((run) => run.inFirstPaint).length;
      report('/login: email field in the first paint', `${inPaint} of ${logins.length} runs`, 'every run');
      report('/login: JavaScript transferred', `${fmt(of(logins, 'jsKb'), 1)} KB`, '< 150 KB');
      report('/login: CSS transferred', `${fmt(of(logins, 'cssKb'), 1)} KB`, '< 10 KB');
      report('/login: requests', fmt(of(logins, 'requests')), '');
    }
    const state = await signIn(browser, served.url, email);
    if (only.has('lists')) {
      for (const list of LIST_PAGES) {
        const runs: ListRun[] = [];
        for (let run = 0; run < RUNS + 1; run += 1)
          runs.push(await measureList(browser, served.url, state, list));
        runs.shift();
        report(`${list.path}: navigation to rows, first visit`, `${fmt(of(runs, 'rowsMs'))} ms`, '< 500 ms');
        report(
          `${list.path}: first visit, ms from navigation start`,
          breakdownLine(runs.map((run) => run.breakdown)),
          '',
        );
        report(
          `${list.path}: navigation to rows, return visit`,
          `${fmt(of(runs, 'returnRowsMs'))} ms`,
          '< 500 ms',
        );
        const asked =
          list.param === 'search' ? 'search typed (300 ms debounce included)' : `${list.param} picked`;
        report(`${list.path}: ${asked} to rows answering`, `${fmt(of(runs, 'searchMs'))} ms`, '');
      }
    }
    if (only.has('moves')) {
      const moves: MoveRun[] = [];
      for (let run = 0; run < RUNS; run += 1) moves.push(await measureMoves(browser, served.url, state));
      report('environments → apps (sidebar)', `${fmt(of(moves, 'apps'))} ms`, '< 150 ms');
      report('apps → services (sidebar)', `${fmt(of(moves, 'services'))} ms`, '< 150 ms');
    }
    if (only.has('scroll')) {
      const scrolls: number[] = [];
      for (let run = 0; run < RUNS; run += 1) scrolls.push(await measureScroll(browser, served.url, state));
      // The long-task observer reports tasks of 50 ms or more only: 0 means there was none.
      const longest = median(scrolls);
      report(
        '/apps?rows=5000 scrolled to the end: longest task',
        longest === 0 ? 'none of 50 ms or more' : `${fmt(longest)} ms`,
        '< 50 ms',
      );
    }
    const where = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
    console.log(`\nMedians of ${RUNS} runs (Chromium headless, server on loopback, ${where}).\n`);
    console.log('| measure | value | target |');
    console.log('|---|---|---|');
    for (const row of rows) console.log(row);
  } finally {
    await browser?.close();
    await cleanup();
  }
}

await main();
