import { readFile } from 'node:fs/promises';
import { renameOrganization, seedVerifiedUser } from '../fixtures/accounts.ts';
import { deployApp } from '../fixtures/operations.ts';
import { createRoleWithScopes } from '../fixtures/team.ts';
import { expect, test } from '../fixtures/test.ts';

// Issue 41, an audit trail: changes that are not operations (an app created, an invitation sent, a role
// renamed) show in Activity's Audit events view with who made them and from which address, filter by
// event and user, and export as a file; the All view merges them with the operations (an organization
// renamed among them).

test.describe('audit events in Activity', () => {
  // Three console flows in one walk (invite, rename, Activity): a loaded CI machine needs the room.
  test.setTimeout(240_000);

  test('an app created, a member invited and a role renamed show with actor and address; filter; export; All merges them with operations', async ({
    signedInPage: page,
    account,
    request,
    environment,
    app,
  }) => {
    const role = await createRoleWithScopes(request, account, {
      name: 'Deployers',
      environment,
      scopes: ['read'],
    });
    const invitee = await seedVerifiedUser(request, { name: 'Ada Audit' });

    // The owner invites through the console…
    await page.goto('/settings/team/invite');
    await page.getByRole('textbox', { name: 'Email' }).fill(invitee.email);
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Deployers' });
    await page.getByRole('button', { name: 'Send Invitation' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Invitation sent to ${invitee.email}` }),
    ).toBeVisible();

    // …and renames the role.
    await page.goto(`/roles/${role.id}/settings`);
    await page.getByRole('textbox', { name: 'Role name', exact: true }).fill('Releasers');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved changes successfully!')).toBeVisible();

    await page.goto('/activity');
    const views = page.getByRole('navigation', { name: 'Activity views' });
    await expect(views.getByRole('link', { name: 'Operations' })).toHaveAttribute('aria-current', 'page');
    await views.getByRole('link', { name: 'Audit events' }).click();
    await expect(page).toHaveURL(/\/activity\?view=audit$/);
    const events = page.getByRole('table', { name: 'Audit events' });

    // Each row names its resource with its parent, the actor and the address.
    const created = events.getByRole('row', {
      name: new RegExp(`App created app ${app.handle} of ${environment.handle}`),
    });
    await expect(created).toBeVisible();
    await expect(created).toContainText(account.email);
    await expect(created).toContainText('127.0.0.1');
    const invited = events.getByRole('row', {
      name: new RegExp(`Invitation sent invitation ${invitee.email}`),
    });
    await expect(invited).toContainText('of Deployers');
    await expect(invited).toContainText(account.email);
    const renamed = events.getByRole('row', { name: /Role changed role Releasers/ });
    await expect(renamed).toContainText('renamed from Deployers');
    await expect(renamed).toContainText('127.0.0.1');

    // Filter by event: only the rename is left.
    await page.getByRole('combobox', { name: 'Event' }).selectOption({ label: 'Role changed' });
    await expect(page).toHaveURL(/action=role\.update/);
    await expect(renamed).toBeVisible();
    await expect(created).toHaveCount(0);
    await expect(invited).toHaveCount(0);
    await page.getByRole('combobox', { name: 'Event' }).selectOption({ label: 'All' });
    await expect(created).toBeVisible();

    // Filter by user: a stranger's address matches nothing; the owner's brings every row back.
    const user = page.getByRole('textbox', { name: 'User e-mail' });
    await user.fill('nobody@example.com');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(events.getByRole('cell', { name: 'No resources found' })).toBeVisible();
    await user.fill(account.email);
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(invited).toBeVisible();

    // Export downloads every event the filters select, as CSV.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export' }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(/^audit-events-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = (await readFile(await file.path(), 'utf8')).trimEnd().split('\r\n');
    expect(header).toBe(
      'time,action,actor_email,actor_id,resource_type,resource_id,resource_name,parent_type,parent_id,parent_name,detail,ip_address',
    );
    expect(rows).toContainEqual(expect.stringContaining(`,app.create,${account.email},`));
    expect(rows).toContainEqual(expect.stringContaining(`,invitation,`));
    expect(rows).toContainEqual(
      expect.stringContaining(`${invitee.email},role,${role.id},Deployers,,127.0.0.1`),
    );
    expect(rows).toContainEqual(expect.stringContaining(',role.update,'));

    // The operations view keeps its own list and filters.
    await views.getByRole('link', { name: 'Operations' }).click();
    await expect(page).toHaveURL(/\/activity$/);
    await expect(page.getByRole('table', { name: 'Activity' })).toBeVisible();

    // The organization renamed (an event of the organization's own), then a deploy: "All" merges the
    // operation and the audit events newest first, each row saying its kind.
    const oldName = account.organization.name;
    await renameOrganization(request, account, `${oldName} Renamed`);
    await deployApp(request, account.token.accessToken, app.id, 'main');
    await views.getByRole('link', { name: 'All' }).click();
    await expect(page).toHaveURL(/\/activity\?view=all$/);
    const all = page.getByRole('table', { name: 'All activity' });
    const deployRow = all.getByRole('row', { name: new RegExp(`^Operation deploy .*app ${app.handle}`) });
    const renameRow = all.getByRole('row', {
      name: new RegExp(`^Audit event Organization settings changed organization ${oldName} Renamed`),
    });
    const appRow = all.getByRole('row', { name: new RegExp(`^Audit event App created app ${app.handle}`) });
    await expect(deployRow).toBeVisible();
    await expect(renameRow).toContainText(`renamed from ${oldName}`);
    await expect(renameRow).toContainText(account.email);
    await expect(appRow).toBeVisible();
    // Newest first: the deploy, the rename, then older events.
    const names = await all.getByRole('row').allInnerTexts();
    const at = (text: string) => names.findIndex((row) => row.includes(text));
    expect(at('deploy')).toBeGreaterThan(0);
    expect(at('deploy')).toBeLessThan(at('Organization settings changed'));
    expect(at('Organization settings changed')).toBeLessThan(at('App created'));
    // A filter of one kind says so and leaves the other kind whole.
    await page
      .getByRole('combobox', { name: 'Event (audit events only)' })
      .selectOption({ label: 'Organization settings changed' });
    await expect(page).toHaveURL(
      /view=all.*action=organization\.update|action=organization\.update.*view=all/,
    );
    await expect(appRow).toHaveCount(0);
    await expect(renameRow).toBeVisible();
    await expect(deployRow).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Operation status (operations only)' })).toBeVisible();
  });
});
