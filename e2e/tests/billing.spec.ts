import type { Browser, Page } from '@playwright/test';
import {
  createAccountEnvironment,
  type Environment,
  type SeededAccount,
  seedAccount,
  seedVerifiedUser,
  type VerifiedUser,
} from '../fixtures/accounts.ts';
import { HOME_URL, submitCredentials } from '../fixtures/console.ts';
import { type OwnServer, startOwnServer } from '../fixtures/own-server.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 37 with BERTH_PAYMENTS=local (the whole payment flow, nothing charged): without a payment method
// a billing owner is sent to add one and a member stays where they are; an owner is sent to Plans, adds
// a card, meets a plan's limit and lifts it by changing plan; a billing owner reads an invoice; a member
// is refused. The invoice is made by the close-period admin command, which needs the embedded database
// to itself: so this spec runs a server of its own.

let server: OwnServer | undefined;
let owner: SeededAccount;
let billingOwner: VerifiedUser;
let member: VerifiedUser;
let firstEnvironment: Environment;

test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startOwnServer({
    name: 'billing',
    env: { BERTH_PAYMENTS: 'local', BERTH_DEFAULT_PLAN: 'starter' },
  });
  const api = server.api;
  owner = await seedAccount(api, { name: 'Owner Person', organization: 'Billing Harbour' });
  // The starter plan a new organization is on allows two environments.
  firstEnvironment = await createAccountEnvironment(api, owner, 'first');
  await createAccountEnvironment(api, owner, 'second');

  billingOwner = await seedVerifiedUser(api, { name: 'Billing Person' });
  const roles = await api.get(`/auth/organizations/${owner.organization.id}/roles`, {
    headers: { authorization: `Bearer ${owner.token.accessToken}`, 'content-type': 'application/hal+json' },
  });
  const billingRole = (
    (await roles.json()) as { _embedded: { roles: { id: string; name: string; type: string }[] } }
  )._embedded.roles.find((role) => role.type === 'billing_owner');
  if (!billingRole) throw new Error('the organization has no billing owner role');
  await inviteAndAccept(api, owner, billingRole, billingOwner);

  member = await seedVerifiedUser(api, { name: 'Member Person' });
  const developers = await createRoleWithScopes(api, owner, {
    name: 'Developers',
    environment: firstEnvironment,
    scopes: ['read'],
  });
  await inviteAndAccept(api, owner, developers, member);
});

test.afterAll(async () => {
  await server?.stop();
});

async function logInPage(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL: server?.origin });
  const page = await context.newPage();
  await page.goto('/login');
  await submitCredentials(page, { email: account.email, password: account.password });
  return page;
}

const planCard = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Plans' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name }) });

test('without a payment method, a billing owner is sent to add one and a member who cannot stays on their page', async ({
  browser,
}) => {
  const billing = await logInPage(browser, billingOwner);
  await expect(billing).toHaveURL(/\/billing$/);
  await expect(billing.getByRole('form', { name: 'Add payment information' })).toBeVisible();
  await billing.context().close();

  const page = await logInPage(browser, member);
  await expect(page.getByRole('heading', { level: 1, name: 'Home' })).toBeVisible();
  await expect(page).toHaveURL(HOME_URL);
  // The trial notice tells them who can add one, with no link to a page that refuses them.
  const notice = page.getByRole('alert').filter({ hasText: 'Your trial is ending' });
  await expect(notice).toContainText('An Account Owner or Billing Only Owner can add a payment method');
  await expect(notice.getByRole('link')).toHaveCount(0);
  await page.context().close();
});

test('an owner without a payment method is sent to Plans, adds a card, changes plan and sees a limit lifted', async ({
  browser,
}) => {
  const page = await logInPage(browser, owner);
  await expect(page).toHaveURL(/\/plans$/);
  await expect(page.getByText('You must add a payment method before changing your plan.')).toBeVisible();
  await expect(planCard(page, 'Growth').getByText('Unavailable')).toBeVisible();
  await expect(planCard(page, 'Starter').getByText('Current plan')).toBeVisible();
  // Every app page comes back here.
  await page.goto('/apps');
  await expect(page).toHaveURL(/\/plans$/);

  // The local provider gives a new organization a trial: it warns of its end until a card is added.
  await expect(page.getByText('Your trial is ending')).toBeVisible();
  await page
    .getByRole('alert')
    .filter({ hasText: 'You must add a payment method before changing your plan.' })
    .getByRole('link', { name: 'Add payment information' })
    .click();
  await expect(page).toHaveURL(/\/billing$/);
  const form = page.getByRole('form', { name: 'Add payment information' });
  await form.getByRole('textbox', { name: 'Name on card' }).fill('Owner Person');
  await form.getByRole('textbox', { name: 'Street address', exact: true }).fill('1 Harbour Road');
  await form.getByRole('textbox', { name: 'City' }).fill('Portland');
  await form.getByRole('textbox', { name: 'Zip code' }).fill('9720');
  await form.getByRole('textbox', { name: 'Card token' }).fill('tok_chargeDeclined');
  await form.getByRole('button', { name: 'Add payment method' }).click();
  await expect(form.getByText('state / province / district is required')).toBeVisible();
  await expect(form.getByText('invalid zip code')).toBeVisible();

  await form.getByRole('combobox', { name: 'State / province / district' }).selectOption('OR');
  await form.getByRole('textbox', { name: 'Zip code' }).fill('97201');
  await form.getByRole('button', { name: 'Add payment method' }).click();
  // The card provider's message for a declined card.
  await expect(form.getByRole('alert')).toContainText('Your card was declined.');

  await form.getByRole('textbox', { name: 'Card token' }).fill('tok_visa');
  await form.getByRole('button', { name: 'Add payment method' }).click();
  await expect(page.getByText('Successfully added stripe payment method!')).toBeVisible();
  await expect(page).toHaveURL(/\/plans$/);
  await expect(page.getByText('You must add a payment method before changing your plan.')).toHaveCount(0);
  await expect(page.getByText('Your trial is ending')).toHaveCount(0);

  // A third environment is over the starter plan's limit: the form says which limit and links to Plans.
  await page.goto('/create/environment');
  await page.getByRole('textbox', { name: 'Handle' }).fill('third');
  await page.getByRole('button', { name: 'Create Environment' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'The starter plan allows 2 environments.' });
  await expect(refusal).toBeVisible();
  await refusal.getByRole('link', { name: 'View plans' }).click();
  await expect(page).toHaveURL(/\/plans$/);

  await planCard(page, 'Growth').getByRole('button', { name: 'Choose Growth' }).click();
  const confirm = page.getByRole('region', { name: 'Confirm plan change' });
  await expect(confirm).toContainText('Price difference: +$185.00 a month');
  await confirm.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByText('Saved changes successfully!')).toBeVisible();
  await expect(planCard(page, 'Growth').getByText('Current plan')).toBeVisible();

  await page.goto('/create/environment');
  await page.getByRole('textbox', { name: 'Handle' }).fill('third');
  await page.getByRole('button', { name: 'Create Environment' }).click();
  await expect(page).not.toHaveURL(/\/create\/environment$/);
  await expect(page.getByText('The starter plan allows 2 environments.')).toHaveCount(0);
  await page.context().close();
});

test('a billing owner reads an invoice in the invoice portal', async ({ browser }) => {
  if (!server) throw new Error('no server');
  await server.stop();
  expect(server.admin('close-period')).toMatch(/^Closed \d+ billing period\(s\)/);
  await server.restart();

  const page = await logInPage(browser, billingOwner);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/settings/billing/invoices');
  const portal = page.frameLocator('iframe[title="Invoice portal"]');
  await expect(portal.getByRole('heading', { name: 'Invoices' })).toBeVisible();
  await expect(portal.getByRole('heading', { name: /^Invoice \d+$/ })).toBeVisible();
  await expect(portal.getByText('growth plan', { exact: false }).first()).toBeVisible();
  await expect(portal.getByRole('cell', { name: 'Total' })).toBeVisible();
  await expect(page.locator('iframe[title="Invoice portal"]')).toHaveAttribute('height', '800');
  await page.context().close();
});

test('a member is refused plans, payment information and invoices', async ({ browser }) => {
  const page = await logInPage(browser, member);
  await expect(page).not.toHaveURL(/\/login$/);
  await page.goto('/settings/billing/invoices');
  await expect(
    page.getByText('You must be an account owner or billing owner to view invoices.'),
  ).toBeVisible();
  await expect(page.locator('iframe[title="Invoice portal"]')).toHaveCount(0);
  await page.goto('/plans');
  await expect(page.getByText('You must be an account owner to view and manage plans.')).toBeVisible();
  await page.goto('/billing');
  await expect(
    page.getByText('You must be an account owner or billing owner to manage billing.'),
  ).toBeVisible();
  await page.context().close();
});
