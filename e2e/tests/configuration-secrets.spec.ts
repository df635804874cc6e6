import type { APIRequestContext } from '@playwright/test';
import { createAccountEnvironment } from '../fixtures/accounts.ts';
import { createApp, getJson } from '../fixtures/operations.ts';
import { expect, test } from '../fixtures/test.ts';

// issue 41 "Secrets stay secret": an app's variables edited as key/value rows, one marked sensitive. Once
// saved its value is never in the page again: the editor shows a locked placeholder that can only be
// replaced or removed, and an untouched sensitive value stays as it is on the server.

const SECRET = 'sk_live_0riginal-s3cret-value';
const ROTATED = 'sk_live_r0tated-s3cret-value';
const OTHER_SECRET = 'whsec_untouched-0ther-s3cret';

/** The app's current variables as the API answers them to a read holder (contract §4.3). */
async function serverEnv(request: APIRequestContext, token: string, appId: string) {
  const app = await getJson<{ _links: { current_configuration?: { href: string } } }>(
    request,
    token,
    `/api/apps/${appId}`,
  );
  const href = app._links.current_configuration?.href ?? '';
  const configuration = await getJson<{ env: Record<string, string | null> }>(
    request,
    token,
    new URL(href).pathname,
  );
  return configuration.env;
}

test('a sensitive variable is never shown again once saved, only replaced', async ({
  signedInPage: page,
  account,
  request,
}) => {
  test.setTimeout(180_000);
  const token = account.token.accessToken;
  const environment = await createAccountEnvironment(request, account, 'secrets-staging');
  const app = await createApp(request, token, environment.id, 'vault');

  await page.goto(`/apps/${app.id}/config`);
  // An app without variables opens on the editor: one blank row.
  await page.getByRole('textbox', { name: 'Key of new variable 1' }).fill('1BAD');
  await page.getByRole('textbox', { name: 'Value of new variable 1' }).fill('x');
  await expect(page.getByText('1BAD does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save Configuration' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Key of new variable 1' }).fill('STRIPE_KEY');
  await page.getByRole('checkbox', { name: 'Sensitive new variable 1' }).check();
  await page.getByRole('textbox', { name: 'Value of new variable 1' }).fill(SECRET);
  for (const [index, key, value, sensitive] of [
    [2, 'WEBHOOK_SECRET', OTHER_SECRET, true],
    [3, 'GREETING', 'hello-visible-world', false],
  ] as const) {
    await page.getByRole('button', { name: 'Add Variable' }).click();
    await page.getByRole('textbox', { name: `Key of new variable ${index}` }).fill(key);
    await page.getByRole('textbox', { name: `Value of new variable ${index}` }).fill(value);
    if (sensitive) await page.getByRole('checkbox', { name: `Sensitive new variable ${index}` }).check();
  }
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText(/^Operation \d+: configure DONE$/)).toBeVisible({ timeout: 60_000 });
  expect(await serverEnv(request, token, app.id)).toEqual({
    STRIPE_KEY: SECRET,
    WEBHOOK_SECRET: OTHER_SECRET,
    GREETING: 'hello-visible-world',
  });

  // Reopened: the sensitive values are in no corner of the page, listed or in the editor.
  await page.reload();
  const listed = page.getByRole('table', { name: 'Environment variables' });
  await expect(listed.getByText('STRIPE_KEY', { exact: true })).toBeVisible();
  await expect(listed.getByRole('button', { name: 'Reveal STRIPE_KEY' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Reveal All' }).click();
  await expect(listed.getByText('hello-visible-world')).toBeVisible();
  expect(await page.content()).not.toContain(SECRET);
  expect(await page.content()).not.toContain(OTHER_SECRET);

  await page.getByRole('button', { name: 'Edit Variables' }).click();
  const editor = page.getByRole('table', { name: 'Environment Variables' });
  await expect(editor.getByRole('checkbox', { name: 'Sensitive STRIPE_KEY' })).toBeChecked();
  await expect(editor.getByRole('checkbox', { name: 'Sensitive STRIPE_KEY' })).toBeDisabled();
  // A visible value is masked in the editor too, until its own eye button.
  await expect(page.getByRole('textbox', { name: 'Value of GREETING' })).toHaveCount(0);
  await editor.getByRole('button', { name: 'Reveal GREETING' }).click();
  await expect(page.getByRole('textbox', { name: 'Value of GREETING' })).toHaveValue('hello-visible-world');
  expect(await page.content()).not.toContain(SECRET);
  expect(await page.content()).not.toContain(OTHER_SECRET);

  // Replace one sensitive value: the field starts empty, the other sensitive value stays untouched.
  await editor.getByRole('button', { name: 'Replace STRIPE_KEY' }).click();
  const replacement = page.getByRole('textbox', { name: 'New value of STRIPE_KEY' });
  await expect(replacement).toHaveValue('');
  await replacement.fill(ROTATED);
  await page.getByRole('button', { name: 'Save Configuration' }).click();
  await expect(page.getByText(/^Operation \d+: configure DONE$/)).toHaveCount(1);
  await expect
    .poll(async () => (await serverEnv(request, token, app.id)).STRIPE_KEY, { timeout: 60_000 })
    .toBe(ROTATED);
  expect(await serverEnv(request, token, app.id)).toEqual({
    STRIPE_KEY: ROTATED,
    WEBHOOK_SECRET: OTHER_SECRET,
    GREETING: 'hello-visible-world',
  });
  const sensitive = await getJson<{ keys: string[] }>(
    request,
    token,
    `/api/apps/${app.id}/sensitive_env_keys`,
  );
  expect(sensitive.keys).toEqual(['STRIPE_KEY', 'WEBHOOK_SECRET']);

  // The new value is as secret as the old one once the configuration reloads.
  await page.reload();
  await page.getByRole('button', { name: 'Edit Variables' }).click();
  await expect(page.getByRole('button', { name: 'Replace STRIPE_KEY' })).toBeVisible();
  expect(await page.content()).not.toContain(ROTATED);
  expect(await page.content()).not.toContain(OTHER_SECRET);

  // The guided deploy's Configure step edits the same variables as text: the sensitive ones are named,
  // never put in the text, and left as they are.
  await page.goto(`/apps/${app.id}/deploy/configure`);
  await expect(page.getByText('STRIPE_KEY, WEBHOOK_SECRET are sensitive')).toBeVisible();
  await expect(page.locator('textarea').first()).toHaveValue(/GREETING=hello-visible-world/);
  await expect(page.locator('textarea').first()).not.toHaveValue(/STRIPE_KEY/);
  expect(await page.content()).not.toContain(ROTATED);
  expect(await page.content()).not.toContain(OTHER_SECRET);
});
