import type { APIRequestContext, Page } from '@playwright/test';
import {
  createAccountEnvironment,
  createEnvironment,
  logInBrowser,
  type SeededAccount,
  seedAccount,
} from '../fixtures/accounts.ts';
import { sidebar } from '../fixtures/console.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { createApp, deployedService, getJson, postJson, waitForOperation } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, global search and the ⌘K palette, against the real server: every resource type is found
// through /search?search=, never one the user may not read; the palette opens on any page, finds an app
// and opens it by keyboard alone; both at 1440 px and on a 390 px phone, in light and dark.

/** The palette's shortcut in Chromium on this machine: Ctrl-K (⌘K on a Mac). */
const SHORTCUT = 'ControlOrMeta+k';

/** A provisioned endpoint on the service; its host name. */
async function provisionedEndpoint(request: APIRequestContext, token: string, serviceId: string) {
  const endpoint = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/services/${serviceId}/vhosts`,
    {
      type: 'http',
      default: true,
    },
  );
  const provision = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/vhosts/${endpoint.id}/operations`,
    { type: 'provision' },
  );
  expect(await waitForOperation(request, token, String(provision.id), 60_000)).toBe('succeeded');
  const body = await getJson<{ id: string | number; virtual_domain: string; external_host: string | null }>(
    request,
    token,
    `/api/vhosts/${endpoint.id}`,
  );
  return { id: String(body.id), host: body.virtual_domain || body.external_host || '' };
}

/** The result links of the search page (resources and deployments). */
function resultLinks(page: Page) {
  return page.getByRole('list', { name: /found$/ }).getByRole('link');
}

/**
 * Searches on the /search page and waits for the answer to the text typed: the page's status names the
 * text its results answer, and is rendered with them, so the links read after it are this text's (the
 * address alone changes before the page does).
 */
async function searchFor(page: Page, text: string) {
  const box = page.getByRole('searchbox', { name: 'Search resources' });
  await box.fill(text);
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(text)}`));
  const answered = new RegExp(`^\\d+ results? for “${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}”$`);
  await expect(page.getByRole('status').filter({ hasText: answered })).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Deployments' })).toBeVisible();
}

test('search finds each resource type, and never one the user may not read', async ({
  signedInPage: page,
  account,
  request,
  browser,
  verifiedUser: teammate,
}) => {
  test.setTimeout(180_000);
  const token = account.token.accessToken;
  const suffix = uniqueSuffix();
  const environment = await createAccountEnvironment(request, account, `find-${suffix}`);
  const appHandle = `finder-${suffix}`;
  const { appId, serviceId } = await deployedService(request, token, environment.id, appHandle);
  const databaseId = await createProvisionedDatabase(request, account, environment, `ledger-${suffix}`);
  const endpoint = await provisionedEndpoint(request, token, serviceId);
  const deployments = await getJson<{ _embedded: { deployments: { id: string | number }[] } }>(
    request,
    token,
    `/api/apps/${appId}/deployments`,
  );
  const deploymentId = String(deployments._embedded.deployments[0]?.id);
  const deployment = await getJson<{ git_commit_sha: string }>(
    request,
    token,
    `/api/deployments/${deploymentId}`,
  );
  const commit = deployment.git_commit_sha.slice(0, 10);
  const sources = await getJson<{ _embedded: { sources: { id: string | number; display_name: string }[] } }>(
    request,
    token,
    '/api/sources',
  );
  const sourceId = String(sources._embedded.sources.find((s) => s.display_name.endsWith(appHandle))?.id);

  await page.goto('/search');
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
  const cases: [string, string][] = [
    [`finder-${suffix}`, `/apps/${appId}`],
    [`ledger-${suffix}`, `/databases/${databaseId}`],
    [`find-${suffix}`, `/environments/${environment.id}`],
    [endpoint.host, `/endpoints/${endpoint.id}`],
    ['shared-us-west-1', '/stacks/'],
    [`${environment.handle}/${appHandle}`, `/sources/${sourceId}`],
    [commit, `/deployments/${deploymentId}`],
    ['cmd', `/apps/${appId}/services/${serviceId}`],
  ];
  for (const [text, path] of cases) {
    await searchFor(page, text);
    const hrefs = await resultLinks(page).evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    );
    expect(
      hrefs.some((href) => href?.startsWith(path)),
      `${text} finds ${path} in ${hrefs.join(', ')}`,
    ).toBe(true);
  }
  // The deployment is listed under Deployments, and opening a result goes to its page.
  await searchFor(page, commit);
  await expect(page.getByRole('list', { name: 'Deployments found' }).getByRole('link')).toHaveCount(1);
  await searchFor(page, appHandle);
  await page
    .getByRole('list', { name: 'Resources found' })
    .getByRole('link', { name: new RegExp(`^${appHandle}, App`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/apps/${appId}$`));

  // Nothing found: the spec's placeholders.
  await page.goto('/search');
  await searchFor(page, `nothing-like-${suffix}`);
  await expect(page.getByText('No results found for this search query.')).toBeVisible();
  await expect(page.getByText('No deployments found')).toBeVisible();

  // A teammate who may read only another environment finds that environment's app, never this one.
  const staging = await createAccountEnvironment(request, account, `staging-${suffix}`);
  const stagingApp = await createApp(request, token, staging.id, `finder-staging-${suffix}`);
  const role = await createRoleWithScopes(request, account, {
    name: `Staging readers ${suffix}`,
    environment: staging,
    scopes: ['basic_read'],
  });
  await inviteAndAccept(request, account, role, teammate);
  const context = await browser.newContext();
  try {
    await logInBrowser(context, teammate);
    const teammatePage = await context.newPage();
    await teammatePage.goto('/search');
    await searchFor(teammatePage, 'finder');
    const hrefs = await resultLinks(teammatePage).evaluateAll((links) =>
      links.map((link) => link.getAttribute('href')),
    );
    expect(hrefs).toContain(`/apps/${stagingApp.id}`);
    for (const forbidden of [
      `/apps/${appId}`,
      `/databases/${databaseId}`,
      `/deployments/${deploymentId}`,
      `/environments/${environment.id}`,
    ]) {
      expect(hrefs).not.toContain(forbidden);
    }
    // Not even by id.
    await searchFor(teammatePage, appId);
    expect(
      await resultLinks(teammatePage).evaluateAll((links) => links.map((l) => l.getAttribute('href'))),
    ).not.toContain(`/apps/${appId}`);
  } finally {
    await context.close();
  }
});

async function strangerApp(request: APIRequestContext, stranger: SeededAccount, handle: string) {
  const environment = await createEnvironment(request, stranger.token.accessToken, {
    organizationId: stranger.organization.id,
  });
  return createApp(request, stranger.token.accessToken, environment.id, handle);
}

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`⌘K finds an app and opens it by keyboard alone at ${width} px in ${scheme}`, async ({
      signedInPage: page,
      account,
      request,
      environment,
    }) => {
      test.setTimeout(90_000);
      const handle = `palette-${scheme}-${width}-${uniqueSuffix()}`;
      const app = await createApp(request, account.token.accessToken, environment.id, handle);
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/environments');
      await inTheme(page, scheme);

      // From the side navigation's search launcher (on a phone, the top bar's: issue 41); Escape gives
      // focus back to it.
      const launcher = (width < 600 ? page : sidebar(page)).getByRole('button', {
        name: 'Search',
        exact: true,
      });
      await launcher.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Search and commands' });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole('combobox')).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(launcher).toBeFocused();

      // From the keyboard on any page: type, arrows, Enter.
      await page.keyboard.press(SHORTCUT);
      await expect(dialog).toBeVisible();
      await page.keyboard.type(handle);
      const option = dialog.getByRole('option', { name: new RegExp(`^${handle}, App`) });
      await expect(option).toBeVisible();
      // The dialog fits the screen: nothing scrolls sideways.
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await test.info().attach(`palette-${width}-${scheme}`, {
        body: await page.screenshot(),
        contentType: 'image/png',
      });
      const box = await dialog.boundingBox();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= width).toBe(true);
      await expect(dialog.getByRole('combobox')).toHaveAttribute(
        'aria-activedescendant',
        (await option.getAttribute('id')) ?? '',
      );
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(new RegExp(`/apps/${app.id}$`));
      await expect(dialog).toBeHidden();

      // An action, by keyboard: Create environment.
      await page.keyboard.press(SHORTCUT);
      await page.keyboard.type('create env');
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/create\/environment$/);

      // The app just opened is Recently Viewed on the empty search page.
      await page.goto('/search');
      const recent = page.getByRole('list', { name: 'Recently Viewed' });
      await expect(recent.getByRole('link', { name: new RegExp(`^${handle}, App`) })).toHaveAttribute(
        'href',
        `/apps/${app.id}`,
      );
      await expect(page.getByRole('list', { name: 'Most Visited' })).toBeVisible();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await test.info().attach(`recent-${width}-${scheme}`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: 'image/png',
      });
      await searchFor(page, handle);
      await expect(page.getByRole('list', { name: 'Resources found' }).getByRole('link')).toHaveCount(1);
      await expect(page.getByText('No deployments found')).toBeVisible();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await test.info().attach(`results-${width}-${scheme}`, {
        body: await page.screenshot({ fullPage: true }),
        contentType: 'image/png',
      });
    });
  }
}

test('search never shows another organization’s resources', async ({
  signedInPage: page,
  request,
  environment,
  account,
}) => {
  const suffix = uniqueSuffix();
  const mine = await createApp(request, account.token.accessToken, environment.id, `rivalry-${suffix}`);
  const stranger = await seedAccount(request);
  const theirs = await strangerApp(request, stranger, `rivalry-theirs-${suffix}`);
  await page.goto('/search');
  await searchFor(page, `rivalry`);
  const hrefs = await resultLinks(page).evaluateAll((links) =>
    links.map((link) => link.getAttribute('href')),
  );
  expect(hrefs).toContain(`/apps/${mine.id}`);
  expect(hrefs).not.toContain(`/apps/${theirs.id}`);
  await searchFor(page, theirs.id);
  expect(
    await resultLinks(page).evaluateAll((links) => links.map((l) => l.getAttribute('href'))),
  ).not.toContain(`/apps/${theirs.id}`);
});
