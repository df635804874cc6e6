import type { APIRequestContext, Page } from '@playwright/test';
import {
  createAccountEnvironment,
  createEnvironment,
  DEFAULT_PASSWORD,
  logIn,
  logInBrowser,
  type SeededAccount,
} from '../fixtures/accounts.ts';
import { HOME_URL, mainNavigation, passwordField } from '../fixtures/console.ts';
import { createProvisionedDatabase } from '../fixtures/databases.ts';
import { uniqueEmail, uniqueSuffix } from '../fixtures/emails.ts';
import { verificationLink } from '../fixtures/mailbox.ts';
import { deployedService, getJson } from '../fixtures/operations.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, spec 3 §2 Home: where everyone with an organization lands; its counts, cost, scaling, top
// source, latest activity and security cards; the beta feedback banner, dismissed for good.

const homeHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Home' });
const counts = (page: Page) => page.getByRole('list', { name: 'Resources at a glance' });
const card = (page: Page, name: string) => page.getByRole('region', { name });
const FEEDBACK_TITLE = 'Home is in beta';

/** An environment with an app deployed from git (a source with a live commit) and a database. */
async function seedResources(request: APIRequestContext, account: SeededAccount) {
  const environment = await createAccountEnvironment(request, account, `home-${uniqueSuffix()}`);
  const { appId } = await deployedService(request, account.token.accessToken, environment.id, 'shop');
  await createProvisionedDatabase(request, account, environment, 'orders');
  return { environment, appId };
}

test.describe('home', () => {
  test('a new user lands on Home after sign-up and sees their counts', async ({ page, mailbox, request }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('home');
    const company = `Home Harbour ${uniqueSuffix()}`;
    await page.goto('/signup');
    await page.getByRole('textbox', { name: 'Name' }).fill('Grace Hopper');
    await page.getByRole('textbox', { name: 'Company' }).fill(company);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await passwordField(page).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('button', { name: 'Create Organization' }).click();
    await expect(page).toHaveURL(/\/verify$/);
    await page.goto(verificationLink(await mailbox.waitFor({ to: email })).url);

    // Verified, with an organization: Home, at "/", first in the menu, with nothing in it yet.
    await expect(page).toHaveURL(HOME_URL);
    await expect(homeHeading(page)).toBeVisible();
    await expect(mainNavigation(page).getByRole('link').first()).toHaveText('Home');
    await expect(mainNavigation(page).getByRole('link', { name: 'Home' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    for (const name of ['0 Dedicated Stacks', '0 Environments', '0 Apps', '0 Databases']) {
      await expect(counts(page).getByRole('link', { name })).toBeVisible();
    }
    const cost = counts(page).getByRole('listitem').filter({ hasText: 'Estimated Monthly Cost' });
    await expect(cost).toHaveText('$0.00Estimated Monthly Cost');
    await expect(card(page, 'Latest Activity')).toContainText('No data found');
    await expect(card(page, 'Top Source')).toContainText('No data found');

    // The user's first environment, app (deployed from git) and database.
    const token = await logIn(request, { email, password: DEFAULT_PASSWORD });
    const organizations = await getJson<{ _embedded: { organizations: { id: string; name: string }[] } }>(
      request,
      token.accessToken,
      '/auth/organizations',
    );
    const organization = organizations._embedded.organizations.find((item) => item.name === company);
    if (!organization) throw new Error('The sign-up made no organization');
    const account: SeededAccount = {
      id: '',
      name: 'Grace Hopper',
      email,
      password: DEFAULT_PASSWORD,
      token,
      organization,
    };
    const environment = await createEnvironment(request, token.accessToken, {
      organizationId: organization.id,
    });
    await deployedService(request, token.accessToken, environment.id, 'shop');
    await createProvisionedDatabase(request, account, environment, 'orders');

    await page.reload();
    for (const name of ['0 Dedicated Stacks', '1 Environments', '1 Apps', '1 Databases']) {
      await expect(counts(page).getByRole('link', { name })).toBeVisible();
    }
    await expect(cost).toHaveText(/^\$[1-9][\d,]*\.\d\dEstimated Monthly Cost$/);
    // The app's web service and the database's.
    await expect(card(page, 'Scaling')).toContainText('2 services, 2 containers');
    await expect(
      card(page, 'Top Source').getByRole('link', { name: `${environment.handle}/shop` }),
    ).toBeVisible();
    const activity = card(page, 'Latest Activity').getByRole('listitem');
    await expect(activity.first()).toContainText('provision');
    await expect(activity.filter({ hasText: 'deploy' })).toHaveCount(1);
    // The owner of the organization has Full Visibility: the security card has its figures.
    await expect(card(page, 'Security & Compliance')).toContainText('0 of 1 members');
    await expect(card(page, 'Security & Compliance')).toContainText('1 of 1 databases');

    // Each count opens its list.
    await counts(page).getByRole('link', { name: '1 Apps' }).click();
    await expect(page).toHaveURL(/\/apps$/);
    // In the table: until the Apps page is in, Home (and its Top Source link) may still be on screen.
    await expect(
      page.getByRole('table', { name: 'Apps' }).getByRole('link', { name: 'shop', exact: true }),
    ).toBeVisible();
  });

  test('the feedback banner dismisses and stays dismissed, in every browser', async ({
    signedInPage: page,
    account,
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.goto('/');
    // A console's first start on a busy machine (the suite shares it) can take longer than a step.
    const boot = { timeout: 30_000 };
    await expect(card(page, 'Scaling')).toBeVisible(boot);
    const banner = page.getByRole('status').filter({ hasText: FEEDBACK_TITLE });
    await expect(banner).toContainText('Tell us what you would like to see here');
    const dismissal = page.waitForResponse(
      (response) =>
        response.request().method() === 'DELETE' && response.url().endsWith('/home/feedback_banner'),
    );
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    // Gone at once, and the server keeps it so.
    await expect(page.getByText(FEEDBACK_TITLE)).toHaveCount(0);
    // Focus, on Dismiss as it went, goes to the page's heading rather than falling to the top.
    await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeFocused();
    expect((await dismissal).status()).toBe(204);

    await page.reload();
    await expect(card(page, 'Scaling')).toBeVisible(boot);
    await expect(page.getByText(FEEDBACK_TITLE)).toHaveCount(0);

    // Another browser of the same user: the server keeps the dismissal.
    const other = await browser.newContext({ baseURL });
    await logInBrowser(other, account);
    const otherPage = await other.newPage();
    await otherPage.goto('/home-beta');
    await expect(otherPage).toHaveURL(HOME_URL, boot);
    await expect(card(otherPage, 'Scaling')).toBeVisible(boot);
    await expect(otherPage.getByText(FEEDBACK_TITLE)).toHaveCount(0);
    await other.close();
  });

  test('a member counts only what they may read and, without Full Visibility, is told what it takes', async ({
    account,
    verifiedUser: teammate,
    request,
    page,
  }) => {
    test.setTimeout(120_000);
    const { environment } = await seedResources(request, account);
    // A second environment, which the teammate's role does not reach.
    await seedResources(request, account);
    const role = await createRoleWithScopes(request, account, {
      name: `Readers ${uniqueSuffix()}`,
      environment,
      scopes: ['basic_read'],
    });
    await inviteAndAccept(request, account, role, teammate);
    await logInBrowser(page.context(), teammate);
    await page.goto('/');
    await expect(homeHeading(page)).toBeVisible();
    for (const name of ['1 Environments', '1 Apps', '1 Databases']) {
      await expect(counts(page).getByRole('link', { name })).toBeVisible();
    }
    await expect(card(page, 'Security & Compliance')).toContainText(
      'Requires Full Visibility on any Environment',
    );
  });

  for (const scheme of SCHEMES) {
    for (const width of [1440, 390]) {
      test(`looks right at ${width} px in ${scheme}`, async ({
        signedInPage: page,
        account,
        request,
      }, testInfo) => {
        test.setTimeout(120_000);
        await seedResources(request, account);
        await page.setViewportSize({ width, height: 900 });
        await page.goto('/');
        await inTheme(page, scheme);
        await expect(homeHeading(page)).toBeVisible();
        await expect(counts(page).getByRole('link', { name: '1 Apps' })).toBeVisible();
        await expect(page.getByText(FEEDBACK_TITLE)).toBeVisible();
        for (const name of ['Scaling', 'Top Source', 'Latest Activity', 'Security & Compliance']) {
          const box = await card(page, name).boundingBox();
          // Every card within the window, none cut at its right edge.
          expect(box, name).not.toBeNull();
          expect((box?.x ?? 0) + (box?.width ?? 0), name).toBeLessThanOrEqual(width);
        }
        expect(await sideways(page)).toBe(0);
        await page.screenshot({ path: testInfo.outputPath(`home-${width}-${scheme}.png`), fullPage: true });
      });
    }
  }
});
