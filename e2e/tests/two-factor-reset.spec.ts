import { type TOTP, URI } from 'otpauth';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { uniqueSuffix } from '../fixtures/emails.ts';
import { waitForMail } from '../fixtures/mailbox.ts';
import { apiHeaders, getJson, postJson } from '../fixtures/operations.ts';
import { createRoleWithScopes, inviteAndAccept } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §4 "2FA" (a 2FA reset for another member emails a link, and 2FA is not reset until the member
// confirms) and §6 (only organization owners reset another member's 2FA): the member page's Reset 2FA,
// the mailed link and the /otp-reset-verify confirmation page.

test('an owner resets a member’s 2FA; it stays on until the member confirms the mailed link', async ({
  signedInPage: page,
  account,
  verifiedUser: member,
  request,
}) => {
  const environment = await createAccountEnvironment(request, account, `reset-${uniqueSuffix()}`);
  const role = await createRoleWithScopes(request, account, {
    name: `Readers ${uniqueSuffix()}`,
    environment,
    scopes: ['read'],
  });
  await inviteAndAccept(request, account, role, member);

  // The member turns 2FA on through the API, as the setup page does.
  const elevated = await postJson<{ access_token: string }>(
    request,
    member.token.accessToken,
    '/auth/tokens',
    {
      username: member.email,
      password: member.password,
      otp_token: '',
      expires_in: 1800,
      grant_type: 'password',
      scope: 'elevated',
    },
  );
  const configuration = await postJson<{ id: string; otp_uri: string; _links: { self: { href: string } } }>(
    request,
    elevated.access_token,
    `/auth/users/${member.id}/otp_configurations`,
    {},
  );
  const totp = URI.parse(configuration.otp_uri) as TOTP;
  const enabled = await request.patch(`/auth/users/${member.id}`, {
    headers: apiHeaders(elevated.access_token),
    data: JSON.stringify({
      type: 'otp',
      otp_enabled: true,
      current_otp_configuration: configuration._links.self.href,
      otp_token: totp.generate(),
    }),
  });
  expect(enabled.status()).toBe(200);
  // Read as the owner sees members: turning 2FA on (and off) ends the member's other sessions.
  const twoFactorOn = async () => {
    const users = await getJson<{ _embedded: { users: { id: string; otp_enabled: boolean }[] } }>(
      request,
      account.token.accessToken,
      `/auth/organizations/${account.organization.id}/users`,
    );
    return users._embedded.users.find((user) => user.id === member.id)?.otp_enabled;
  };
  expect(await twoFactorOn()).toBe(true);

  await page.goto(`/settings/team/members/${member.id}`);
  await page.getByRole('button', { name: 'Reset 2FA' }).click();
  await page.getByRole('button', { name: 'Email the reset link' }).click();
  await expect(
    page.getByText('A reset link was emailed to the member. 2FA stays on until they confirm it.'),
  ).toBeVisible();
  expect(await twoFactorOn()).toBe(true);

  const mail = await waitForMail(request, {
    to: member.email,
    subject: 'Reset your Berth two-factor authentication',
  });
  const path = /\/otp-reset-verify\/[^\s"'<>]+\/[^\s"'<>]+/.exec(mail.text || mail.html)?.[0] ?? '';
  expect(path).not.toBe('');
  await page.goto(path);
  await expect(page.getByRole('heading', { name: 'Reset two-factor authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Reset 2FA' }).click();
  await expect(page.getByText(/Two-factor authentication is now disabled on your account/)).toBeVisible();
  expect(await twoFactorOn()).toBe(false);

  // The link works once.
  await page.goto(path);
  await page.getByRole('button', { name: 'Reset 2FA' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
});
