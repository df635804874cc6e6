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
