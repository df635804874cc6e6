import { passwordField } from '../fixtures/console.ts';
import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 "Elevation: email read-only, password, 2FA code if required, and a redirect query parameter".

test.describe('elevation', () => {
  test('confirms the password and goes on to the redirect', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=/environments');
    await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveValue(account.email);
    await expect(email).not.toBeEditable();
    await expect(page.getByRole('textbox', { name: '2FA Code' })).toHaveCount(0);

    await passwordField(page).fill(account.password);
    const elevated = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === '/auth/tokens',
    );
    await page.getByRole('button', { name: 'Confirm' }).click();
    const response = await elevated;
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toMatchObject({ username: account.email, scope: 'elevated' });

    await expect(page).toHaveURL(/\/environments$/);
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
  });

  test('a wrong password shows the server error and stays', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=/environments');
    await passwordField(page).fill(`${account.password}-wrong`);
    await page.getByRole('button', { name: 'Confirm' }).click();

    await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/elevate\?redirect=/);
    await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible();
    // The session itself is untouched.
    await page.goto('/environments');
    await expect(page.getByRole('heading', { name: 'Environments', exact: true })).toBeVisible();
  });

  test('an outside redirect is not followed', async ({ signedInPage: page, account }) => {
    await page.goto('/elevate?redirect=//example.com/phish');
    await passwordField(page).fill(account.password);
    await page.getByRole('button', { name: 'Confirm' }).click();

    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});
