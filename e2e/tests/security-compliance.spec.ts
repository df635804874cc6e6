import { Secret, TOTP } from 'otpauth';
import {
  createAccountEnvironment,
  logInBrowser,
  seedAccount,
  seedVerifiedUser,
} from '../fixtures/accounts.ts';
import { mainNavigation, passwordField } from '../fixtures/console.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { inTheme, SCHEMES, sideways } from '../fixtures/screen.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 38, Security & Compliance: the sidebar's entry (spec 3 §2: Full Visibility on any environment,
// else disabled with its tooltip), and a dashboard that follows what members do, here a member turning
// on 2FA.

// Each first look after a navigation waits this long: the page's code and the summary load with it.
const LOADED = { timeout: 30_000 };

test('Security & Compliance reflects a member turning on 2FA', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const owner = await seedAccount(request, { name: 'Ada Lovelace' });
  const environment = await createAccountEnvironment(request, owner, `secure-${uniqueSuffix()}`);
  const role = await createRoleWithScopes(request, owner, {
    name: `Deployers ${uniqueSuffix()}`,
    environment,
    scopes: ['deploy'],
  });
  const member = await seedVerifiedUser(request, { name: 'Grace Hopper' });
  await inviteAndAccept(request, owner, role, member);

  // The owner opens it from the sidebar and picks the environment.
  await logInBrowser(page.context(), owner);
  await page.goto('/environments');
  await mainNavigation(page).getByRole('link', { name: 'Security & Compliance' }).click();
  await expect(page).toHaveURL(/\/security-compliance/);
  await expect(page.getByRole('heading', { name: 'Security & Compliance', level: 1 })).toBeVisible(LOADED);
  await page.getByLabel('Environment').selectOption({ label: environment.handle });
  const twoFactor = page.getByRole('region', { name: 'Two-factor authentication' });
  await expect(twoFactor.getByText('0 of 2 members use 2FA', { exact: true })).toBeVisible(LOADED);
  await expect(twoFactor.getByRole('list', { name: 'Without 2FA' })).toContainText(
    `Grace Hopper (${member.email})`,
  );
  // The invitation gave the member a role: a privileged change, with who gave it.
  await expect(page.getByRole('list', { name: 'Privileged changes, newest first' })).toContainText(
    `Ada Lovelace added Grace Hopper to the role ${role.name}`,
  );

  // The member has Deployment only: the entry is disabled for them, with the spec's tooltip.
  const theirs = await browser.newContext();
  try {
    await logInBrowser(theirs, member);
    const memberPage = await theirs.newPage();
    await memberPage.goto('/environments');
    const entry = mainNavigation(memberPage).getByRole('link', { name: 'Security & Compliance' });
    await expect(entry).toHaveAttribute('aria-disabled', 'true', LOADED);
    await expect(entry).toHaveAccessibleDescription(/^Requires Full Visibility on any Environment/);

    // The member turns on 2FA in their settings.
    await memberPage.goto('/settings/otp-setup');
    await expect(memberPage).toHaveURL(/\/elevate\?redirect=/, LOADED);
    await passwordField(memberPage).fill(member.password);
    await memberPage.getByRole('button', { name: 'Confirm' }).click();
    await expect(memberPage).toHaveURL(/\/settings\/otp-setup$/, LOADED);
    const secret = (await memberPage.getByTestId('otp-secret').textContent()) ?? '';
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    await memberPage.getByRole('textbox', { name: '2FA Code' }).fill(totp.generate());
    await memberPage.getByRole('button', { name: 'Enable 2FA' }).click();
    await expect(memberPage).toHaveURL(/\/settings\/otp-recovery-codes$/, LOADED);
  } finally {
    await theirs.close();
  }

  // The owner's dashboard says so on the next look, and no longer names the member.
  await page.reload();
  await expect(twoFactor.getByText('1 of 2 members use 2FA', { exact: true })).toBeVisible(LOADED);
  await expect(twoFactor.getByRole('list', { name: 'Without 2FA' })).not.toContainText('Grace Hopper');
  // The same facts on the environment's own Security tab.
  await page.goto(`/environments/${environment.id}/security`);
  await expect(
    page.getByRole('region', { name: 'Two-factor authentication' }).getByText('1 of 2 members use 2FA'),
  ).toBeVisible(LOADED);
});

for (const scheme of SCHEMES) {
  for (const width of [1440, 390]) {
    test(`Security & Compliance fits ${width} px in ${scheme}`, async ({
      signedInPage: page,
      account,
      request,
    }) => {
      test.setTimeout(120_000);
      const environment = await createAccountEnvironment(request, account, `looks-${uniqueSuffix()}`);
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/security-compliance?environment_id=${environment.id}`);
      await inTheme(page, scheme);
      for (const card of [
        'Two-factor authentication',
        'Single sign-on',
        'Database backups',
        'Database encryption',
        'Endpoints',
        'Recent privileged activity',
      ]) {
        await expect(page.getByRole('region', { name: card })).toBeVisible(LOADED);
      }
      await expect(page.getByText('0 of 1 member uses 2FA', { exact: true })).toBeVisible();
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await page.goto(`/environments/${environment.id}/security`);
      await expect(page.getByRole('region', { name: 'Endpoints' })).toBeVisible(LOADED);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
    });
  }
}
