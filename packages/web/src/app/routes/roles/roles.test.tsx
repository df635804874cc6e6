import { permissionMessages, ROLES_CSV_COLUMNS } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, roleHal, userHal } from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

const role = (id: string, name: string, type: string, createdAt: string) => ({
  ...roleHal({ id, name, type }),
  created_at: createdAt,
});

const ROLES = [
  role('r-old', 'Old Devs', 'platform_user', '2025-01-01T00:00:00.000Z'),
  role('r-audit', 'Auditors', 'compliance_user', '2025-01-02T00:00:00.000Z'),
  role('r-billing', 'Billing', 'billing_owner', '2025-01-03T00:00:00.000Z'),
  role('r-new', 'New Devs', 'platform_user', '2025-03-01T00:00:00.000Z'),
  role('r-deploy', 'Deployers', 'platform_owner', '2025-01-04T00:00:00.000Z'),
  role('r-owner', 'Owners', 'owner', '2025-01-05T00:00:00.000Z'),
];
const ADA = userHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' });
const CHARLES = userHal({ id: 'user-2', name: 'Charles Babbage', email: 'charles@example.com' });
const MEMBERSHIPS = [
  membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-owner' }),
  membershipHal({ id: 'm2', userId: 'user-2', roleId: 'r-new' }),
  membershipHal({ id: 'm3', userId: 'user-1', roleId: 'r-new' }),
];
const ENVIRONMENTS = [
  environmentHal({
    id: '10',
    handle: 'production',
    permissions: [
      { id: 'p1', scope: 'deploy', roleId: 'r-new' },
      { id: 'p2', scope: 'read', roleId: 'r-new' },
    ],
  }),
  environmentHal({
    id: '11',
    handle: 'staging',
    permissions: [{ id: 'p3', scope: 'admin', roleId: 'r-old' }],
  }),
];

/** The overview's calls, with the signed-in user holding `mine` (all roles unless told). */
function overviewServer(mine = ROLES) {
  return mockServer({
    ...consoleRoutes({ user: ADA, roles: ROLES, environments: ENVIRONMENTS }),
    'GET /auth/users/user-1/roles': () => json(200, collection('roles', mine)),
    'GET /auth/organizations/org-1/roles/memberships': () => json(200, membershipsByRole(MEMBERSHIPS)),
    'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, CHARLES])),
  });
}

function rowTexts(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('roles overview', () => {
  it('lists the roles in the spec order with type labels, members and environments, without compliance roles', async () => {
    signIn();
    overviewServer();
    renderApp('/settings/team/roles');
    const table = await screen.findByRole('table', { name: 'Roles' }, { timeout: 5000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(6));
    expect(rowTexts(table)).toEqual([
      ['Owners', 'Account Owner', '1', 'All environments'],
      ['Deployers', 'Deploy Owner', '0', 'All environments'],
      ['Billing', 'Billing Only Owner', '0', 'Billing only'],
      ['New Devs', 'Platform User', '2', '1 environment, 2 permissions'],
      ['Old Devs', 'Platform User', '0', '1 environment, 1 permission'],
    ]);
    expect(within(table).getByRole('link', { name: 'New Devs' })).toHaveAttribute('href', '/roles/r-new');
    expect(screen.queryByText('Auditors')).not.toBeInTheDocument();
    // The page sits in the settings frame.
    expect(screen.getByRole('navigation', { name: 'Settings' })).toBeInTheDocument();
  });

  // spec 1 §6: a Deploy Owner cannot see the owner and billing roles (the server leaves them out too);
  // one who also holds the billing role sees that one.
  it.each([
    [['r-deploy'], ['Deployers', 'New Devs', 'Old Devs']],
    [
      ['r-deploy', 'r-billing'],
      ['Deployers', 'Billing', 'New Devs', 'Old Devs'],
    ],
  ])('shows a Deploy Owner holding %j only the roles it may see', async (held, names) => {
    signIn();
    overviewServer(ROLES.filter((item) => held.includes(item.id)));
    renderApp('/settings/team/roles');
    const table = await screen.findByRole('table', { name: 'Roles' }, { timeout: 5000 });
    await waitFor(() => expect(rowTexts(table).map((row) => row[0])).toEqual(names));
    expect(within(table).queryByText('Owners')).not.toBeInTheDocument();
  });

  it('keeps the user, environment and role filters in the query string', async () => {
    signIn();
    overviewServer();
    const { router } = renderApp('/settings/team/roles?environment_id=11');
    const table = await screen.findByRole('table', { name: 'Roles' }, { timeout: 5000 });
    // Owner roles reach every environment; of the others only Old Devs holds a permission on staging.
    await waitFor(() =>
      expect(rowTexts(table).map((row) => row[0])).toEqual(['Owners', 'Deployers', 'Old Devs']),
    );
    expect(screen.getByRole('combobox', { name: 'Environment' })).toHaveValue('11');

    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Environment' }), '');
    await user.selectOptions(screen.getByRole('combobox', { name: 'User' }), 'user-2');
    expect(router.state.location.search).toBe('?user_id=user-2');
    expect(rowTexts(table).map((row) => row[0])).toEqual(['New Devs']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'User' }), '');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'r-old');
    expect(router.state.location.search).toBe('?role_id=r-old');
    expect(rowTexts(table).map((row) => row[0])).toEqual(['Old Devs']);
  });

  it('exports the Roles CSV with the spec columns', async () => {
    signIn();
    overviewServer();
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:roles';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderApp('/settings/team/roles?role_id=r-new');
    const table = await screen.findByRole('table', { name: 'Roles' }, { timeout: 5000 });
    await waitFor(() => expect(rowTexts(table)).toHaveLength(1));
    const button = screen.getByRole('button', { name: 'Export CSV' });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.setup().click(button);

    expect(click).toHaveBeenCalledOnce();
    const text = await blobs[0]?.text();
    expect(text?.split('\r\n')).toEqual([
      ROLES_CSV_COLUMNS.join(','),
      'Analytical Engines,New Devs,"charles@example.com, ada@example.com",production,false,true,true,true,false,true,false,false',
      '',
    ]);
  });

  it('offers New Role to owners and explains why others cannot', async () => {
    signIn();
    overviewServer(ROLES.filter((item) => item.id === 'r-new'));
    renderApp('/settings/team/roles');
    const button = await screen.findByRole('button', { name: 'New Role' }, { timeout: 5000 });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(deniedDescription(permissionMessages.roleManagement));
  });
});

describe('new role', () => {
  it('creates a platform_user role from its name and opens its page', async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes({ user: ADA, roles: ROLES, environments: ENVIRONMENTS }),
      'GET /auth/organizations/org-1/roles/memberships': () => json(200, membershipsByRole(MEMBERSHIPS)),
      'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, CHARLES])),
      'POST /auth/organizations/org-1/roles': () =>
        json(201, role('r-readers', 'Readers', 'platform_user', '2025-04-01T00:00:00.000Z')),
      'GET /auth/roles/r-readers/memberships': () => json(200, collection('memberships', [])),
    });
    const { router } = renderApp('/settings/team/roles');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'New Role' }, { timeout: 5000 }));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Role' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Readers');
    await user.click(screen.getByRole('button', { name: 'Create Role' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/roles/r-readers/members'));
    expect(server.callsTo('POST', '/auth/organizations/org-1/roles')[0]?.body).toEqual({
      name: 'Readers',
      type: 'platform_user',
    });
  });
});
