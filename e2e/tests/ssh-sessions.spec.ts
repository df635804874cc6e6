import { generateKeyPairSync } from 'node:crypto';
import type { Page } from '@playwright/test';
import { logInBrowser } from '../fixtures/accounts.ts';
import { passwordField } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 /settings/ssh (SSH keys) and /settings/security "Log out other sessions".

/** A fresh ed25519 public key in OpenSSH's one-line form (RFC 8709: string "ssh-ed25519", string key). */
function ed25519PublicKey(comment: string): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
  const raw = der.subarray(der.length - 32);
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} ${comment}`;
}

/** The page asks for the password first (spec 1 §6) and comes back. */
async function reauthenticate(page: Page, password: string) {
  await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Confirm' }).click();
}

test.describe('SSH keys', () => {
  test('adds a key, lists it, refuses it twice and deletes it', async ({ signedInPage: page, account }) => {
    await page.goto('/settings/ssh');
    await reauthenticate(page, account.password);
    await expect(page).toHaveURL(/\/settings\/ssh$/);
    await expect(page.getByRole('heading', { name: 'SSH Keys', exact: true })).toBeVisible();
    await expect(page.getByText('No SSH keys yet')).toBeVisible();

    const key = ed25519PublicKey('e2e@example.com');
    await page.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
    await page.getByRole('textbox', { name: 'Public key' }).fill(key);
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    const row = page.getByRole('row', { name: /Work laptop/ });
    await expect(row).toBeVisible();
    await expect(row).toContainText('SHA256:');

    // The same key again is refused with the server's message; a broken one too.
    await page.getByRole('textbox', { name: 'Name' }).fill('Again');
    await page.getByRole('textbox', { name: 'Public key' }).fill(key);
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    await expect(
      page.getByText('This SSH key has already been added to your account (as "Work laptop").'),
    ).toBeVisible();
    await page.getByRole('textbox', { name: 'Public key' }).fill('ssh-rsa not-a-key');
    await page.getByRole('button', { name: 'Add SSH key' }).click();
    await expect(page.getByText(/This is not a valid SSH public key/)).toBeVisible();

    await row.getByRole('button', { name: 'Delete Work laptop' }).click();
    await page.getByRole('button', { name: 'Confirm delete Work laptop' }).click();
    await expect(page.getByText('No SSH keys yet')).toBeVisible();
    // A reload drops the elevated token (memory only), but the session's sudo window (issue 41) gives a
    // new one without the password: the page comes back, and the key stays gone.
    await page.reload();
    await expect(page).toHaveURL(/\/settings\/ssh$/);
    await expect(page.getByText('No SSH keys yet')).toBeVisible();
    await expect(passwordField(page)).toHaveCount(0);
  });
});

test.describe('sessions', () => {
  test('“Log out other sessions” ends a second browser’s session and keeps this one', async ({
    signedInPage: page,
    account,
    browser,
  }) => {
    const other = await browser.newContext();
    try {
      await logInBrowser(other, account);
      const otherPage = await other.newPage();
      await otherPage.goto('/environments');
      await expect(otherPage.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();

      await page.goto('/settings/security');
      await reauthenticate(page, account.password);
      await expect(page).toHaveURL(/\/settings\/security$/);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await expect(sessions.getByText('(this session)')).toBeVisible();
      await expect(sessions.getByRole('button', { name: /Revoke session/ }).first()).toBeVisible();

      await sessions.getByRole('button', { name: 'Log out other sessions' }).click();
      await expect(
        page.getByText(
          'Successfully logged out of other sessions! You may wish to log out of this session, as well.',
        ),
      ).toBeVisible();
      await expect(sessions.getByRole('button', { name: /Revoke session/ })).toHaveCount(0);

      // The other browser is signed out at its next request, and its cookie restores nothing.
      await otherPage.reload();
      await expect(otherPage).toHaveURL(/\/login$/);

      // This one is still signed in.
      await page.goto('/environments');
      await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
    } finally {
      await other.close();
    }
  });

  test('revokes one other session from the list', async ({ signedInPage: page, account, browser }) => {
    const other = await browser.newContext();
    try {
      await logInBrowser(other, account);
      const otherPage = await other.newPage();
      await otherPage.goto('/environments');
      await expect(otherPage.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();

      await page.goto('/settings/security');
      await reauthenticate(page, account.password);
      const sessions = page.getByRole('region', { name: 'Sessions' });
      await expect(sessions.getByText('(this session)')).toBeVisible();
      // The newest other session is the second browser's (the list is newest first).
      const revokeButtons = sessions.getByRole('button', { name: /Revoke session/ });
      const before = await revokeButtons.count();
      await revokeButtons.first().click();
      await sessions.getByRole('button', { name: 'Confirm revoke' }).click();
      await expect(revokeButtons).toHaveCount(before - 1);

      await otherPage.reload();
      await expect(otherPage).toHaveURL(/\/login$/);
    } finally {
      await other.close();
    }
  });
});
