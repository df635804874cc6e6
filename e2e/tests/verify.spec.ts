import { randomUUID } from 'node:crypto';
import { submitCredentials } from '../fixtures/console.ts';
import { mailboxLinkPath, verificationLink } from '../fixtures/mailbox.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 "Unverified users go to the verify page", §4 "Email verification", §8 its failure message.
const VERIFY_FAILED =
  'Failed to verify your email, the token may have expired. Resend the verification email and try again.';
const RESEND_SUCCESS = 'Success! You should receive an email shortly.';

test.describe('email verification', () => {
  test('an unverified user who logs in is sent to the verify page', async ({ page, unverifiedUser }) => {
    await page.goto('/login');
    await submitCredentials(page, unverifiedUser);

    await expect(page).toHaveURL(/\/verify$/);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(page.getByText(unverifiedUser.email)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toBeVisible();

    // The console's pages stay closed until the email is verified.
    await page.goto('/environments');
    await expect(page).toHaveURL(/\/verify$/);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  });

  test('on this machine, the verify page opens the local mailbox, whose link verifies', async ({
    page,
    unverifiedUser,
    mailbox,
  }) => {
    await mailbox.waitFor({ to: unverifiedUser.email });
    await page.goto('/login');
    await submitCredentials(page, unverifiedUser);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(
      page.getByText(
        'The local mailbox opens once this browser has followed the mailbox link Berth printed when it started.',
      ),
    ).toBeVisible();

    // Issue 34: the mailbox answers only a browser that followed the link the server printed at start.
    const before = await page.request.get('/dev/mail');
    expect(before.status()).toBe(404);
    const printed = await page.context().newPage();
    await printed.goto(mailboxLinkPath());
    await expect(printed).toHaveURL(/\/dev\/mail$/);
    await expect(printed.getByRole('heading', { name: 'Berth mailbox' })).toBeVisible();
    await printed.close();

    const [mailboxPage] = await Promise.all([
      page.context().waitForEvent('page'),
      page.getByRole('link', { name: 'Open the local mailbox' }).click(),
    ]);
    await expect(mailboxPage.getByRole('heading', { name: 'Berth mailbox' })).toBeVisible();
    const message = mailboxPage.locator('article').filter({ hasText: unverifiedUser.email }).first();
    await message.getByRole('link', { name: /\/verify\// }).click();
    // No organization yet, so no Home (issue 38): "/" leads to the environments.
    await expect(mailboxPage).toHaveURL(/\/environments$/);
    await expect(mailboxPage.getByRole('heading', { name: 'No environments exist' })).toBeVisible();
  });

  test('Resend Verification Email mails a new link that verifies', async ({
    page,
    unverifiedUser,
    mailbox,
  }) => {
    const first = await mailbox.waitFor({ to: unverifiedUser.email });
    await page.goto('/login');
    await submitCredentials(page, unverifiedUser);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

    await page.getByRole('button', { name: 'Resend Verification Email' }).click();
    await expect(page.getByRole('status').filter({ hasText: RESEND_SUCCESS })).toHaveText(RESEND_SUCCESS);

    const resent = await mailbox.waitFor({ to: unverifiedUser.email, excluding: [first.id] });
    const link = verificationLink(resent);
    await page.goto(link.url);
    await expect(page).toHaveURL(/\/environments$/);
    await expect(page.getByRole('heading', { name: 'No environments exist' })).toBeVisible();
  });

  test('a link with a wrong code or an unknown challenge fails with the spec message', async ({
    page,
    unverifiedUser,
    mailbox,
  }) => {
    const link = verificationLink(await mailbox.waitFor({ to: unverifiedUser.email }));
    const wrongCode = `wrong${link.code}`;
    await page.goto('/login');
    await submitCredentials(page, unverifiedUser);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

    await page.goto(`/verify/${link.challengeId}/${wrongCode}`);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(VERIFY_FAILED);
    await expect(page.getByRole('button', { name: 'Resend Verification Email' })).toBeVisible();

    await page.goto(`/verify/${randomUUID()}/${link.code}`);
    await expect(page.getByRole('alert')).toHaveText(VERIFY_FAILED);

    // Neither attempt verified the account: the console still sends the user to /verify.
    await page.goto('/environments');
    await expect(page).toHaveURL(/\/verify$/);
  });
});

test.describe('tabs of one browser (issue 20)', () => {
  test('a tab left on "Verify your email" moves on once another tab verifies the address', async ({
    page,
    unverifiedUser,
    mailbox,
  }) => {
    const mail = await mailbox.waitFor({ to: unverifiedUser.email });
    await page.goto('/login');
    await submitCredentials(page, unverifiedUser);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();

    // The link opened in a second tab of the same browser.
    const other = await page.context().newPage();
    await other.goto(verificationLink(mail).url);
    await expect(other).toHaveURL(/\/environments$/);

    // The first tab notices without a reload.
    await expect(page).toHaveURL(/\/environments$/, { timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'No environments exist' })).toBeVisible();
  });
});
