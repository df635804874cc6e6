import type { Browser, Page } from '@playwright/test';
import { type SeededAccount, seedAccount } from '../fixtures/accounts.ts';
import { accountNavigation, HOME_URL, organizationSwitcher, submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 /impersonate and §6 staff impersonation, contract §3.4. A superuser is made with the admin
// command, which needs the embedded database to itself: so this spec starts its own server, stops it
// for the command, and starts it again on the same data.

let server: OwnServer | undefined;
let staff: SeededAccount;
let customer: SeededAccount;

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startOwnServer({ name: 'impersonation' });
  staff = await seedAccount(server.api, { name: 'Staff Member', organization: 'Staff Harbour' });
  customer = await seedAccount(server.api, { name: 'Customer Person', organization: 'Customer Harbour' });
  await server.stop();
  expect(server.admin('make-superuser', staff.email)).toContain(staff.email);
  await server.restart();
});

test.afterAll(async () => {
  await server?.stop();
});

async function logInPage(browser: Browser, account: SeededAccount): Promise<Page> {
  const context = await browser.newContext({ baseURL: server?.origin });
  const page = await context.newPage();
  await page.goto('/login');
  await submitCredentials(page, { email: account.email, password: account.password });
  await expect(page).toHaveURL(HOME_URL);
  return page;
}

test('a superuser impersonates a user and stops impersonating', async ({ browser }) => {
  const page = await logInPage(browser, staff);
  await expect(organizationSwitcher(page, 'Staff Harbour')).toBeVisible();
  await expect(accountNavigation(page).getByRole('link', { name: 'Impersonate' })).toBeVisible();

  await page.goto('/impersonate');
  await expect(page.getByRole('heading', { name: 'Impersonate', exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(customer.email);
  await page.getByRole('button', { name: 'Impersonate' }).click();

  const banner = page.getByText(`You are impersonating Customer Person (${customer.email})`);
  await expect(banner).toBeVisible();
  await expect(organizationSwitcher(page, 'Customer Harbour')).toBeVisible();

  await page.getByRole('button', { name: 'Stop impersonating' }).click();
  await expect(page).toHaveURL(/\/impersonate$/);
  await expect(page.getByRole('heading', { name: 'Impersonate', exact: true })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await expect(organizationSwitcher(page, 'Staff Harbour')).toBeVisible();
  await page.context().close();
});

test('a user who is not staff is sent away from /impersonate', async ({ browser }) => {
  const page = await logInPage(browser, customer);
  await expect(accountNavigation(page).getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(accountNavigation(page).getByRole('link', { name: 'Impersonate' })).toHaveCount(0);

  await page.goto('/impersonate');
  await expect(page).not.toHaveURL(/\/impersonate$/);
  await expect(organizationSwitcher(page, 'Customer Harbour')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Impersonate', exact: true })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveCount(0);
  await page.context().close();
});
