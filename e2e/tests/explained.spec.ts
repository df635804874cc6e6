import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment, logInBrowser, type SeededAccount } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { deployedService, getJson, postJson, waitForOperation } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 20, what the console explains, on a 1440 px screen and a 390 px phone, in light and dark: masked
// configuration values; an app's estimate by part; the Scale form's price before saving; a single service restarted after a
// confirmation, its status in the spec's one word (DONE); the role matrix's summary, legend and column
// descriptions; and a teammate's denial in plain words (what is missing, where, whom to ask).

/** The dollars in a text such as "$1,234.50". */
const dollars = (text: string) => Number(text.replace(/[$,]/g, ''));

/** A shared endpoint on the service, provisioned (it then costs the shared endpoint rate). */
async function provisionedEndpoint(request: APIRequestContext, token: string, serviceId: string) {
  const endpoint = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/services/${serviceId}/vhosts`,
    {
      type: 'http',
      default: true,
      shared: true,
    },
  );
  const provision = await postJson<{ id: string | number }>(
    request,
    token,
    `/api/vhosts/${endpoint.id}/operations`,
    { type: 'provision' },
  );
  expect(await waitForOperation(request, token, String(provision.id), 60_000)).toBe('succeeded');
}

async function seed(request: APIRequestContext, account: SeededAccount, label: string) {
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(
    request,
    account,
    `explained-${label}-${uniqueSuffix()}`,
  );
  const { appId, serviceId } = await deployedService(request, token, environment.id, 'shop');
  await provisionedEndpoint(request, token, serviceId);
  const configure = await postJson<{ id: string | number }>(request, token, `/api/apps/${appId}/operations`, {
    type: 'configure',
    env: { SECRET_KEY: 'do-not-show-me', GREETING: 'hello' },
  });
  expect(await waitForOperation(request, token, String(configure.id), 60_000)).toBe('succeeded');
  const rates = await getJson<{ shared_vhost_cost_per_hour: number }>(
    request,
    token,
    `/api/costs/${account.organization.id}/rates`,
  );
  return {
    environment,
    appId,
    serviceId,
    configureId: String(configure.id),
    sharedEndpointMonthly: rates.shared_vhost_cost_per_hour * 730,
  };
}

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`explains costs, restarts and permissions at ${width} px in ${scheme}`, async ({
      signedInPage: page,
      account,
      verifiedUser: teammate,
      request,
      browser,
    }) => {
      test.setTimeout(120_000);
      const { environment, appId, serviceId, configureId, sharedEndpointMonthly } = await seed(
        request,
        account,
        `${scheme}-${width}`,
      );
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/apps/${appId}`);
      await inTheme(page, scheme);
      if (width < 768) {
        // On a phone the menu is a drawer (issue 41: opened from the Menu button): opened from the keyboard,
        // Escape closes it and focus goes back to the button that opens it.
        const sidebar = page.getByRole('complementary', { name: 'Sidebar' });
        const menu = page.getByRole('button', { name: 'Menu', exact: true });
        await menu.focus();
        await page.keyboard.press('Enter');
        await expect(sidebar).toHaveAttribute('data-overlay', 'true');
        await page.keyboard.press('Escape');
        await expect(sidebar).toBeHidden();
        await expect(menu).toBeFocused();
      }

      // The app's estimate by part: containers, then endpoints and the rest, adding up to the total.
      const details = page.getByRole('region', { name: 'App details' });
      const estimate = details.getByText(
        /^\$[\d,.]+ \(containers \$[\d,.]+, endpoints and the rest \$[\d,.]+\)$/,
      );
      await expect(estimate).toBeVisible();
      const [total, containers, rest] = ((await estimate.textContent()) ?? '').match(/\$[\d,.]+/g) ?? [];
      expect(dollars(rest ?? '')).toBeCloseTo(sharedEndpointMonthly, 2);
      expect(dollars(total ?? '')).toBeCloseTo(dollars(containers ?? '') + dollars(rest ?? ''), 2);

      // Configuration values stay out of the page until revealed, one key or all.
      await page.goto(`/apps/${appId}/config`);
      const variables = page.getByRole('table', { name: 'Environment variables' });
      await expect(variables.getByText('SECRET_KEY', { exact: true })).toBeVisible();
      expect(await page.content()).not.toContain('do-not-show-me');
      await variables.getByRole('button', { name: 'Reveal SECRET_KEY' }).click();
      await expect(variables.getByText('do-not-show-me')).toBeVisible();
      await expect(variables.getByText('hello', { exact: true })).toHaveCount(0);
      await page.getByRole('button', { name: 'Reveal All' }).click();
      await expect(variables.getByText('hello', { exact: true })).toBeVisible();
      await page.getByRole('button', { name: 'Hide All' }).click();
      await expect(variables.getByText('do-not-show-me')).toHaveCount(0);
      expect(await sideways(page)).toBeLessThanOrEqual(0);

      // The Scale form prices a change before it is saved: three containers cost three times one.
      await page.goto(`/apps/${appId}/services/${serviceId}/scale`);
      const now = page.getByText(/^Containers: \$[\d,.]+ a month now\.$/);
      await expect(now).toBeVisible();
      const nowPrice = dollars(/\$[\d,.]+/.exec((await now.textContent()) ?? '')?.[0] ?? '');
      expect(nowPrice).toBeCloseTo(dollars(containers ?? ''), 2);
      await page.getByRole('spinbutton', { name: 'Number of Containers' }).fill('3');
      const after = page.getByText(
        /^Containers: \$[\d,.]+ a month now, \$[\d,.]+ a month after this change\.$/,
      );
      await expect(after).toBeVisible();
      const afterPrice = dollars(((await after.textContent()) ?? '').match(/\$[\d,.]+/g)?.[1] ?? '');
      expect(afterPrice).toBeCloseTo(nowPrice * 3, 2);

      // One service restarts on its own, after a confirmation that says what happens; its status then
      // reads DONE, the spec's word, as Activity says it.
      // By keyboard alone: the confirmation takes focus, Escape gives it back to its opener.
      await page.goto(`/apps/${appId}/services/${serviceId}/settings`);
      const restart = page.getByRole('button', { name: /^Restart / });
      await restart.focus();
      await page.keyboard.press('Enter');
      await expect(
        page.getByText('Its containers stop and start again; requests may fail meanwhile.'),
      ).toBeVisible();
      const confirm = page.getByRole('button', { name: /^Confirm restart of / });
      await expect(confirm).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(restart).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(confirm).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByText(/^Operation \d+: restart DONE$/)).toBeVisible({ timeout: 60_000 });
      await page.getByRole('link', { name: 'View operation' }).click();
      await expect(page.getByText('Operation DONE', { exact: true })).toBeVisible();
      // Re-run asks first and says what it will run: the configuration, over the values set now.
      await page.goto(`/operations/${configureId}`);
      await page.getByRole('button', { name: 'Re-run configure of shop' }).click();
      await expect(
        page.getByText('Sets 2 variables of shop as this operation did, over their values now.'),
      ).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByRole('button', { name: 'Re-run configure of shop' })).toBeFocused();
      expect(await sideways(page)).toBeLessThanOrEqual(0);

      // The role matrix says what the role's members can and cannot do, and what its columns allow.
      const role = await createRoleWithScopes(request, account, {
        name: `Deployers ${uniqueSuffix()}`,
        environment,
        scopes: ['deploy'],
      });
      await page.goto(`/roles/${role.id}/environments`);
      const summary = page.getByRole('region', { name: `What members of ${role.name} can do` });
      await expect(summary.getByText(`${environment.handle}`, { exact: true })).toBeVisible();
      await expect(summary).toContainText(/Deployment.*Not: .*Destroy/);
      await expect(page.getByText(/inherited: given by another\s+scope/)).toBeVisible();
      await page.getByText('What each column allows').click();
      await expect(page.getByText('Ops: drains, restarts and scaling', { exact: true })).toBeVisible();
      expect(await sideways(page)).toBeLessThanOrEqual(0);

      // A teammate with Deployment there sees Deprovision disabled, and why in plain words.
      await inviteAndAccept(request, account, role, teammate);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      try {
        await logInBrowser(context, teammate);
        const theirs = await context.newPage();
        await theirs.goto(`/apps/${appId}/settings`);
        await inTheme(theirs, scheme);
        const deprovision = theirs.getByRole('button', { name: 'Deprovision App' });
        await expect(deprovision).toHaveAttribute('aria-disabled', 'true');
        await expect(deprovision).toHaveAccessibleDescription(
          new RegExp(
            `Needs Destroy on the ${environment.handle} environment\\. Ask an owner of the organization, or an admin of one of your roles, to grant it\\.$`,
          ),
        );
        expect(await sideways(theirs)).toBeLessThanOrEqual(0);
      } finally {
        await context.close();
      }
    });
  }
}
