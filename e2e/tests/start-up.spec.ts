import { expect, test } from '../fixtures/test.ts';

// Issue 11: a signed-in page load sends its session check and start-up calls from the page's start
// script (written into index.html), while the browser still fetches the console's code; the console's own
// calls then take those answers instead of asking again. CSP violations fail any test (fixtures/test.ts).

test('a signed-in /apps sends its start-up calls before the console’s code has arrived, and each once', async ({
  signedInPage: page,
}) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (/^\/(auth|api)\//.test(url.pathname)) sent.push(`${url.pathname}${url.search}`);
  });
  // The console's entry module is held back until the session check and the apps list have left.
  let entryHeld = false;
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    entryHeld = true;
    await expect
      .poll(() => sent.filter((path) => path === '/auth/current_token' || path.startsWith('/api/apps?')))
      .toHaveLength(2);
    await route.continue();
  });

  await page.goto('/apps');
  await expect(page.getByRole('heading', { name: 'Apps', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(entryHeld).toBe(true);
  const once = (path: string) => sent.filter((each) => each === path).length;
  expect(once('/auth/current_token')).toBe(1);
  expect(once('/api/apps?per_page=5000&no_embed=true')).toBe(1);
  expect(sent.filter((path) => path.startsWith('/api/stacks'))).toHaveLength(1);
  expect(sent.filter((path) => path.startsWith('/api/accounts'))).toHaveLength(1);
});

test('the start-up chain runs in a worker: each next step leaves while the page’s main thread is busy', async ({
  signedInPage: page,
  account,
}) => {
  const sentAt = new Map<string, number>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    // The first of each: the console may ask for a path again later.
    if (/^\/(auth|api|billing)\//.test(url.pathname) && !sentAt.has(url.pathname)) {
      sentAt.set(url.pathname, Date.now());
    }
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  // What the page's own fetch sends (the console's calls): none of the chain's calls.
  await page.addInitScript(() => {
    const sent: string[] = [];
    (window as unknown as { pageFetches: string[] }).pageFetches = sent;
    const pageFetch = window.fetch.bind(window);
    window.fetch = (input, init) => {
      sent.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return pageFetch(input, init);
    };
  });
  // The session check is answered a second after the page's main thread was asked to begin a 3 s loop
  // (whether it had begun by then is checked below): the steps that follow from that answer cannot wait
  // for that thread.
  let busy: Promise<{ start: number; end: number }> | undefined;
  let released = 0;
  await page.route('**/auth/current_token', async (route) => {
    busy ??= page.evaluate(() => {
      const start = Date.now();
      const end = start + 3000;
      while (Date.now() < end);
      return { start, end };
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    released = Date.now();
    await route.continue();
  });

  await page.goto('/apps');
  await expect(page.getByRole('heading', { name: 'Apps', exact: true })).toBeVisible();
  const loop = await busy;
  if (loop === undefined) throw new Error('the session check was not sent');
  expect(loop.start, 'the loop had begun before the session check was answered').toBeLessThan(released);
  // The organization's roles and billing detail follow the organizations' answer, which follows the
  // session check's: both steps were taken during the loop.
  const organization = account.organization.id;
  for (const path of [
    '/auth/organizations',
    `/auth/organizations/${organization}/roles`,
    `/billing/billing_details/${organization}`,
  ]) {
    expect(sentAt.get(path), path).toBeGreaterThan(loop.start);
    expect(sentAt.get(path), path).toBeLessThan(loop.end);
  }
  // Started from a blob of its code: no request of its own to wait for.
  expect(workers).toEqual([expect.stringMatching(/^blob:/)]);
  const pageFetches = await page.evaluate(() => (window as unknown as { pageFetches: string[] }).pageFetches);
  expect(pageFetches).not.toContain('/auth/current_token');
  expect(pageFetches).not.toContain('/auth/organizations');
  expect(pageFetches).not.toContain('/api/apps');
});
