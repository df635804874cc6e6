import type { APIRequestContext } from '@playwright/test';
import {
  createAccountEnvironment,
  DEFAULT_PASSWORD,
  logInBrowser,
  seedVerifiedUser,
} from '../fixtures/accounts.ts';
import { organizationSwitcher, passwordField, submitCredentials } from '../fixtures/console.ts';
import { uniqueEmail } from '../fixtures/emails.ts';
import type { Mail } from '../fixtures/mailbox.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 /settings/team/members, /members/{id}, /invite, /pending-invites and /claim/{inviteId}/{code};
// §4 Invitation page and Role editing; §8 the invitation texts and toasts; contract §3.9 the mailed link.

const NOT_FOUND = 'We could not find this invitation.  So either it never existed or was later revoked.';

/** POSTs a HAL body as the token's holder and answers the id of what it created. */
async function postForId(request: APIRequestContext, token: string, path: string, body: unknown) {
  const response = await request.post(path, {
    headers: { 'content-type': 'application/hal+json', authorization: `Bearer ${token}` },
    data: JSON.stringify(body),
  });
  expect(response.ok()).toBe(true);
  return String(((await response.json()) as { id: string }).id);
}

function createRole(request: APIRequestContext, token: string, organizationId: string, name: string) {
  return postForId(request, token, `/auth/organizations/${organizationId}/roles`, {
    name,
    type: 'platform_user',
  });
}

function invite(request: APIRequestContext, token: string, roleId: string, email: string) {
  return postForId(request, token, `/auth/roles/${roleId}/invitations`, { email, origin: 'app' });
}

/** The console path of an invitation mail: /claim/{invitationId}/{code}. */
function claimPath(mail: Mail): string {
  const found = /\/claim\/[^/\s"'<>?#]+\/[^/\s"'<>?#]+/.exec(mail.text || mail.html);
  if (!found) throw new Error(`No claim link in "${mail.subject}"`);
  return found[0];
}

test.describe('team settings', () => {
  test('an owner makes a scoped role on the way to Invite, and invites into it (issue 20)', async ({
    signedInPage: page,
    account,
    request,
  }) => {
    const environment = await createAccountEnvironment(request, account, 'scoped-staging');
    await page.goto('/settings/team/invite');
    await page.getByRole('link', { name: 'New role…' }).click();
    await expect(page).toHaveURL(/\/settings\/team\/roles\/create\?next=invite$/);
    await page.getByRole('textbox', { name: 'Name' }).fill('Staging deployers');
    await page.getByRole('button', { name: 'Create Role' }).click();

    // The new role opens on its environments, with the way back to Invite.
    await expect(page).toHaveURL(/\/roles\/[^/]+\/environments\?next=invite$/);
    await page.getByRole('checkbox', { name: `Deployment on ${environment.handle}` }).click();
    await expect(page.getByRole('checkbox', { name: `Deployment on ${environment.handle}` })).toHaveAttribute(
      'data-state',
      'granted',
    );
    await page.getByRole('link', { name: 'Continue to Invite' }).click();
    await expect(page).toHaveURL(/\/settings\/team\/invite\?role_id=/);
    await expect(page.getByRole('combobox', { name: 'Role' })).toHaveValue(/.+/);
    await expect(page.getByRole('combobox', { name: 'Role' }).locator('option:checked')).toHaveText(
      'Staging deployers',
    );
    const email = uniqueEmail('scoped');
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('button', { name: 'Send Invitation' }).click();
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await expect(pending.getByRole('row', { name: new RegExp(email) })).toContainText('Staging deployers');
  });

  test('an owner invites a member by email; the invitee accepts; the owner edits their roles', async ({
    page,
    browser,
    request,
    account,
    mailbox,
  }) => {
    const token = account.token.accessToken;
    await createRole(request, token, account.organization.id, 'Deployers');
    await createRole(request, token, account.organization.id, 'Observers');
    const invitee = await seedVerifiedUser(request, { name: 'Grace Hopper' });

    await logInBrowser(page.context(), account);
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/settings\/team\/members$/);
    await expect(page.getByRole('heading', { name: 'Members' })).toBeVisible();
    await page.getByRole('link', { name: 'Invite', exact: true }).click();

    await expect(page).toHaveURL(/\/settings\/team\/invite$/);
    await page.getByRole('textbox', { name: 'Email' }).fill(invitee.email);
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Deployers' });
    await page.getByRole('button', { name: 'Send Invitation' }).click();

    await expect(
      page.getByRole('status').filter({ hasText: `Invitation sent to ${invitee.email}` }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/settings\/team\/pending-invites$/);
    const pending = page.getByRole('table', { name: 'Pending invitations' });
    await expect(pending.getByRole('row', { name: new RegExp(invitee.email) })).toContainText('Deployers');

    // The invitee opens the mailed link in their own browser, signed in as themselves.
    const mail = await mailbox.waitFor({ to: invitee.email, subject: /invited you to/ });
    const inviteeContext = await browser.newContext();
    try {
      await logInBrowser(inviteeContext, invitee);
      const inviteePage = await inviteeContext.newPage();
      await inviteePage.goto(claimPath(mail));
      await expect(
        inviteePage.getByRole('heading', { name: `Join ${account.organization.name}` }),
      ).toBeVisible();
      await inviteePage.getByRole('button', { name: 'Accept Invitation' }).click();
      await expect(inviteePage).not.toHaveURL(/\/claim\//);
      await expect(organizationSwitcher(inviteePage, account.organization.name)).toBeVisible();
    } finally {
      await inviteeContext.close();
    }

    // Accepted: no longer pending, now a member.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Members' }).click();
    const members = page.getByRole('table', { name: 'Members' });
    const row = members.getByRole('row', { name: new RegExp(invitee.email) });
    await expect(row).toContainText('Deployers');
    await row.getByRole('link', { name: 'Grace Hopper' }).click();

    await expect(page).toHaveURL(/\/settings\/team\/members\/[^/]+$/);
    const save = page.getByRole('button', { name: 'Save' });
    await expect(save).toBeDisabled();
    // The last remaining role cannot be unchecked.
    await expect(page.getByRole('checkbox', { name: 'Deployers' })).toBeDisabled();
    await page.getByRole('checkbox', { name: 'Observers' }).check();
    await page.getByRole('checkbox', { name: 'Deployers' }).uncheck();
    await save.click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Successfully updated user roles!' }),
    ).toBeVisible();

    await page.getByRole('link', { name: '← Members' }).click();
    await expect(members.getByRole('row', { name: new RegExp(invitee.email) })).toContainText('Observers');
    await expect(members.getByRole('row', { name: new RegExp(invitee.email) })).not.toContainText(
      'Deployers',
    );

    // spec 1 §6: owners remove members (after confirming), never themselves.
    await expect(page.getByRole('button', { name: `Remove ${account.name}` })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await page.getByRole('button', { name: 'Remove Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Confirm remove Grace Hopper' }).click();
    await expect(members.getByRole('row', { name: new RegExp(invitee.email) })).toHaveCount(0);
  });

  test('an owner revokes an invitation; its link then says it cannot be found', async ({
    page,
    browser,
    request,
    account,
    mailbox,
  }) => {
    const token = account.token.accessToken;
    const roleId = await createRole(request, token, account.organization.id, 'Contractors');
    const email = uniqueEmail('invitee');
    await invite(request, token, roleId, email);
    const mail = await mailbox.waitFor({ to: email, subject: /invited you to/ });

    // Signed out, the link shows the invitation and offers Log in and Sign up.
    const visitor = await browser.newContext();
    try {
      const visitorPage = await visitor.newPage();
      await visitorPage.goto(claimPath(mail));
      await expect(
        visitorPage.getByRole('heading', { name: `Join ${account.organization.name}` }),
      ).toBeVisible();
      await expect(visitorPage.getByRole('button', { name: 'Log in' })).toBeVisible();
      await expect(visitorPage.getByRole('button', { name: 'Sign up' })).toBeVisible();

      await logInBrowser(page.context(), account);
      await page.goto('/settings/team/pending-invites');
      await page.getByRole('button', { name: `Revoke invitation to ${email}` }).click();
      await page.getByRole('button', { name: `Confirm revoke ${email}` }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Revoked invitation' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'No pending invitations' })).toBeVisible();

      await visitorPage.reload();
      await expect(visitorPage.getByRole('alert')).toHaveText(NOT_FOUND);
    } finally {
      await visitor.close();
    }
  });

  test('Resend mails a new link', async ({ page, request, account, mailbox }) => {
    const token = account.token.accessToken;
    const roleId = await createRole(request, token, account.organization.id, 'Reviewers');
    const email = uniqueEmail('invitee');
    await invite(request, token, roleId, email);
    const first = await mailbox.waitFor({ to: email, subject: /invited you to/ });

    await logInBrowser(page.context(), account);
    await page.goto('/settings/team/pending-invites');
    await page.getByRole('button', { name: `Resend invitation to ${email}` }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Resent invitation to user' })).toBeVisible();
    const second = await mailbox.waitFor({ to: email, subject: /invited you to/, excluding: [first.id] });
    expect(claimPath(second)).not.toBe(claimPath(first));
  });

  test('a signed-out invitee logs in from the link, comes back to it and accepts', async ({
    page,
    request,
    account,
    mailbox,
  }) => {
    const roleId = await createRole(request, account.token.accessToken, account.organization.id, 'Analysts');
    const invitee = await seedVerifiedUser(request, { name: 'Katherine Johnson' });
    await invite(request, account.token.accessToken, roleId, invitee.email);
    const link = claimPath(await mailbox.waitFor({ to: invitee.email, subject: /invited you to/ }));

    await page.goto(link);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await submitCredentials(page, invitee);
    await expect(page).toHaveURL(new RegExp(`${link}$`));
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await expect(organizationSwitcher(page, account.organization.name)).toBeVisible();
  });

  test('a new person signs up from the link without a company and joins the organization', async ({
    page,
    request,
    account,
    mailbox,
  }) => {
    const roleId = await createRole(request, account.token.accessToken, account.organization.id, 'Interns');
    const email = uniqueEmail('newcomer');
    await invite(request, account.token.accessToken, roleId, email);
    const link = claimPath(await mailbox.waitFor({ to: email, subject: /invited you to/ }));

    await page.goto(link);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    // Issue 41: the invitee joins the inviting organization: no Company, no Organization step.
    await expect(page.getByText(`You are joining ${account.organization.name} by invitation.`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Sign-up progress' }).getByRole('listitem')).toHaveText([
      'Step 1: Your details',
      'Step 2: Login',
    ]);
    await expect(page.getByRole('textbox', { name: 'Company' })).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Name' }).fill('Dorothy Vaughan');
    await page.getByRole('button', { name: 'Next' }).click();
    // Issue 20: the invited address comes filled in, and stays as it is.
    const emailField = page.getByRole('textbox', { name: 'Email' });
    await expect(emailField).toHaveValue(email);
    await expect(emailField).toHaveAttribute('readonly', '');
    await passwordField(page).fill(DEFAULT_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(new RegExp(`${link}$`));
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await expect(organizationSwitcher(page, account.organization.name)).toBeVisible();
    // The invitation's code proved the address: no verify page on the way.
    await expect(page).not.toHaveURL(/\/verify/);
  });
});
