import { expect, test } from '../fixtures/test.ts';

// spec 1 §2 /settings/team/contacts "organization settings and contacts"; §5 organization settings rules;
// §8 'Saved changes successfully!'; §4 Delete Account is a request, enabled once the name is typed.

test.describe('organization settings', () => {
  test('an owner changes the name and security alert email; they are kept after a reload', async ({
    signedInPage: page,
    account,
  }) => {
    await page.goto('/settings');
    await page
      .getByRole('navigation', { name: 'Settings' })
      .getByRole('link', { name: 'Organization Settings' })
      .click();
    await expect(page).toHaveURL(/\/settings\/team\/contacts$/);
    const form = page.getByRole('form', { name: 'Organization Settings' });
    const name = form.getByRole('textbox', { name: 'Name' });
    await expect(name).toHaveValue(account.organization.name);
    const save = form.getByRole('button', { name: 'Save Changes' });
    await expect(save).toBeDisabled();

    const renamed = `${account.organization.name} Renamed`;
    await name.fill(renamed);
    await form.getByRole('textbox', { name: 'Security Alert Email' }).fill('security@example.com');
    await form.getByRole('combobox', { name: 'State' }).selectOption({ label: 'N/A' });
    await save.click();
    await expect(page.getByText('Saved changes successfully!')).toBeVisible();
    await expect(save).toBeDisabled();

    await page.reload();
    await expect(name).toHaveValue(renamed);
    await expect(form.getByRole('textbox', { name: 'Security Alert Email' })).toHaveValue(
      'security@example.com',
    );
    await expect(form.getByRole('combobox', { name: 'State' })).toHaveValue('N/A');
  });

  test('a bad alert email shows the message and nothing is saved', async ({
    signedInPage: page,
    account,
  }) => {
    await page.goto('/settings/team/contacts');
    const form = page.getByRole('form', { name: 'Organization Settings' });
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue(account.organization.name);
    await form.getByRole('textbox', { name: 'Ops Alert Email' }).fill('not-an-email');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByText('Must provide valid email')).toBeVisible();
    await expect(page.getByText('Saved changes successfully!')).toHaveCount(0);

    await page.reload();
    await expect(form.getByRole('textbox', { name: 'Ops Alert Email' })).toHaveValue('');
  });

  test('the deletion request stays disabled until the organization name is typed', async ({
    signedInPage: page,
    account,
  }) => {
    await page.goto('/settings/team/contacts');
    const section = page.getByRole('region', { name: 'Delete Account' });
    const request = section.getByRole('button', { name: 'Request Account Deletion' });
    const field = section.getByRole('textbox', { name: 'Organization name' });
    await expect(field).toBeEnabled();
    await expect(request).toBeDisabled();
    await field.fill(account.organization.name.toUpperCase());
    await expect(request).toBeDisabled();
    await field.fill(account.organization.name);
    await expect(request).toBeEnabled();
    await request.click();

    const confirmation = page.getByRole('region', { name: 'Account deletion request' });
    await expect(
      confirmation.getByText(`Account deletion request: ${account.organization.name}`),
    ).toBeVisible();
    await expect(confirmation.getByRole('link', { name: 'Confirm' })).toHaveAttribute(
      'href',
      /^\/support\?subject=Account\+deletion\+request/,
    );
  });
});
