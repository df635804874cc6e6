import { memberMessages, permissionMessages, scopeDenialMessage } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, roleHal, userHal } from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

const OWNERS = roleHal({ id: 'r-owner', name: 'Owners', type: 'owner' });
const DEVS = roleHal({ id: 'r-devs', name: 'Developers', type: 'platform_user' });
const ROLES = [OWNERS, DEVS];
const ADA = userHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' });
const CHARLES = userHal({ id: 'user-2', name: 'Charles Babbage', email: 'charles@example.com' });
const ENVIRONMENTS = [
  environmentHal({
    id: '10',
    handle: 'production',
    permissions: [{ id: 'p1', scope: 'admin', roleId: 'r-devs' }],
  }),
  environmentHal({
    id: '11',
    handle: 'staging',
    permissions: [{ id: 'p2', scope: 'read', roleId: 'r-devs' }],
  }),
  environmentHal({
    id: '12',
    handle: 'sandbox',
    permissions: [{ id: 'p3', scope: 'deploy', roleId: 'r-other' }],
  }),
];

interface Setup {
  /** Roles the signed-in user (Ada) holds; owners by default. */
  mine?: ReturnType<typeof roleHal>[];
  memberships?: ReturnType<typeof membershipHal>[];
  environments?: unknown[];
  routes?: Parameters<typeof mockServer>[0];
}

function roleServer({
  mine = [OWNERS],
  memberships = [],
  environments = ENVIRONMENTS,
  routes = {},
}: Setup = {}) {
  const ofRole = (roleId: string) => memberships.filter((m) => m._links.role.href.endsWith(`/${roleId}`));
  return mockServer({
    ...consoleRoutes({ user: ADA, roles: ROLES, environments }),
    'GET /auth/users/user-1/roles': () => json(200, collection('roles', mine)),
    'GET /auth/organizations/org-1/roles/memberships': () => json(200, membershipsByRole(memberships)),
    'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, CHARLES])),
    'GET /auth/roles/r-devs/memberships': () => json(200, collection('memberships', ofRole('r-devs'))),
    'GET /auth/roles/r-owner/memberships': () => json(200, collection('memberships', ofRole('r-owner'))),
    ...routes,
  });
}

const tabNames = () =>
  within(screen.getByRole('navigation', { name: 'Role sections' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

const cell = (name: string) => screen.getByRole('checkbox', { name });

describe('role detail tabs (spec 1 §6)', () => {
  it('shows Members, Environments and Settings for a custom role, and opens Members first', async () => {
    signIn();
    roleServer();
    const { router } = renderApp('/roles/r-devs');
    expect(await screen.findByRole('heading', { name: 'Developers' }, { timeout: 5000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/roles/r-devs/members');
    expect(tabNames()).toEqual(['Members', 'Environments', 'Settings']);
  });

  it('shows only Members for the owner role, even when another tab is asked for', async () => {
    signIn();
    roleServer();
    const { router } = renderApp('/roles/r-owner/environments');
    expect(await screen.findByRole('heading', { name: 'Owners' }, { timeout: 5000 })).toBeInTheDocument();
    expect(tabNames()).toEqual(['Members']);
    expect(router.state.location.pathname).toBe('/roles/r-owner/members');
  });
});

describe('role members', () => {
  it('says when the role has no members', async () => {
    signIn();
    roleServer();
    renderApp('/roles/r-devs/members');
    expect(
      await screen.findByRole('heading', { name: 'Developers currently has no members.' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('adds an organization member, toggles role admin and removes a member', async () => {
    signIn();
    const server = roleServer({
      // Ada also owns the organization, so Developers is not her last role.
      memberships: [
        membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs' }),
        membershipHal({ id: 'm3', userId: 'user-1', roleId: 'r-owner' }),
      ],
      routes: {
        'POST /auth/roles/r-devs/memberships': () =>
          json(201, membershipHal({ id: 'm2', userId: 'user-2', roleId: 'r-devs' })),
        'PATCH /auth/memberships/m1': () =>
          json(200, membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs', privileged: true })),
        'DELETE /auth/memberships/m1': () => noContent(),
      },
    });
    renderApp('/roles/r-devs/members');
    const table = await screen.findByRole('table', { name: 'Members of Developers' }, { timeout: 5000 });
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument();
    const user = userEvent.setup();

    // Only members who do not hold the role yet are offered.
    const select = screen.getByRole('combobox', { name: 'Organization member' });
    expect(within(select).queryByText(/Ada Lovelace/)).not.toBeInTheDocument();
    await user.selectOptions(select, 'user-2');
    await user.click(screen.getByRole('button', { name: 'Add Member' }));
    await waitFor(() => expect(server.callsTo('POST', '/auth/roles/r-devs/memberships')).toHaveLength(1));
    expect(server.callsTo('POST', '/auth/roles/r-devs/memberships')[0]?.body).toEqual({
      user_url: 'http://berth.test/auth/users/user-2',
    });

    await user.click(screen.getByRole('switch', { name: 'Role admin: Ada Lovelace' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/auth/memberships/m1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/auth/memberships/m1')[0]?.body).toEqual({ privileged: true });

    // The same confirm step as the Members page.
    await user.click(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    expect(server.callsTo('DELETE', '/auth/memberships/m1')).toHaveLength(0);
    const confirm = screen.getByRole('button', { name: 'Confirm remove Ada Lovelace' });
    expect(document.activeElement).toBe(confirm);
    await user.click(confirm);
    await waitFor(() => expect(server.callsTo('DELETE', '/auth/memberships/m1')).toHaveLength(1));
  });

  // spec 1 §4: the last remaining role stays; the member leaves by Remove member on the Members page.
  it('asks before removing a member, and keeps a member’s last role with the reason', async () => {
    signIn();
    let removed = false;
    const devs = [
      membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs' }),
      membershipHal({ id: 'm2', userId: 'user-2', roleId: 'r-devs' }),
    ];
    const server = roleServer({
      // Ada also owns the organization; Charles holds Developers only.
      memberships: [...devs, membershipHal({ id: 'm3', userId: 'user-1', roleId: 'r-owner' })],
      routes: {
        'GET /auth/roles/r-devs/memberships': () =>
          json(200, collection('memberships', removed ? devs.slice(1) : devs)),
        'DELETE /auth/memberships/m1': () => {
          removed = true;
          return noContent();
        },
      },
    });
    renderApp('/roles/r-devs/members');
    const table = await screen.findByRole('table', { name: 'Members of Developers' }, { timeout: 5000 });
    const user = userEvent.setup();

    const last = screen.getByRole('button', { name: 'Remove Charles Babbage' });
    expect(last).toHaveAttribute('aria-disabled', 'true');
    expect(last).toHaveAccessibleDescription(deniedDescription(memberMessages.lastRole));
    await user.click(last);
    expect(screen.queryByRole('button', { name: 'Confirm remove Charles Babbage' })).not.toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/memberships/m2')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    const confirm = screen.getByRole('button', { name: 'Confirm remove Ada Lovelace' });
    expect(confirm).not.toHaveAccessibleDescription();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Confirm remove Ada Lovelace' }));
    await waitFor(() => expect(server.callsTo('DELETE', '/auth/memberships/m1')).toHaveLength(1));
    await waitFor(() => expect(within(table).queryByText('Ada Lovelace')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(table));
  });

  it('leaves the members alone for those who are neither owner nor role admin', async () => {
    signIn();
    roleServer({
      mine: [DEVS],
      memberships: [membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs' })],
    });
    renderApp('/roles/r-devs/members');
    const remove = await screen.findByRole('button', { name: 'Remove Ada Lovelace' }, { timeout: 5000 });
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    expect(remove).toHaveAccessibleDescription(deniedDescription(permissionMessages.roleManagement));
    const admin = screen.getByRole('switch', { name: 'Role admin: Ada Lovelace' });
    expect(admin).toHaveAttribute('aria-disabled', 'true');
    expect(admin).toHaveAccessibleDescription(deniedDescription(permissionMessages.roleManagement));
  });
});

describe('role environment permissions (spec 1 §6)', () => {
  it('shows each cell granted, inherited or denied', async () => {
    signIn();
    roleServer();
    renderApp('/roles/r-devs/environments');
    await screen.findByRole('table', { name: 'Environment permissions of Developers' }, { timeout: 5000 });
    const headers = screen.getAllByRole('columnheader');
    expect(headers[0]).toHaveTextContent('Environment');
    // Issue 41: everyday words, the spec's label under them, and what the column allows as its tooltip.
    expect(
      headers
        .slice(1)
        .map((header) => [
          header.querySelector('.matrix-column-everyday')?.textContent,
          header.querySelector('.matrix-column-spec')?.textContent,
        ]),
    ).toEqual([
      ['Everything', 'Environment Admin'],
      ['See all', 'Full Visibility'],
      ['See', 'Basic Visibility'],
      ['Deploy', 'Deployment'],
      ['Delete', 'Destroy'],
      ['Scale & restart', 'Ops'],
      ['See secrets', 'Sensitive Access'],
      ['Open tunnels', 'Tunnel'],
    ]);
    const tunnelName = headers[8]?.querySelector('.matrix-column-name');
    expect(tunnelName).toHaveAttribute('tabindex', '0');
    expect(tunnelName).toHaveAccessibleDescription(
      'Opens tunnels into databases, without their credentials. In the spec: Tunnel (tunnel).',
    );
    // Admin marks all other scopes inherited: checked and disabled.
    expect(cell('Environment Admin on production')).toBeChecked();
    expect(cell('Environment Admin on production')).not.toHaveAttribute('aria-disabled');
    expect(cell('Environment Admin on production')).toHaveAttribute('data-state', 'granted');
    for (const scope of ['Full Visibility', 'Basic Visibility', 'Deployment', 'Tunnel']) {
      expect(cell(`${scope} on production`)).toBeChecked();
      expect(cell(`${scope} on production`)).toHaveAttribute('aria-disabled', 'true');
      expect(cell(`${scope} on production`)).toHaveAttribute('data-state', 'inherited');
    }
    // Inherited boxes carry a mark and say where they come from (issue 41).
    expect(cell('Tunnel on production')).toHaveAccessibleDescription('Inherited from Environment Admin');
    expect(cell('Tunnel on production').closest('td')).toHaveTextContent('inherited');
    expect(cell('Environment Admin on production').closest('td')).not.toHaveTextContent('inherited');
    // Any permission marks basic_read inherited.
    expect(cell('Full Visibility on staging')).toHaveAttribute('data-state', 'granted');
    expect(cell('Basic Visibility on staging')).toHaveAttribute('data-state', 'inherited');
    expect(cell('Basic Visibility on staging')).toHaveAccessibleDescription(
      'Inherited: any permission gives Basic Visibility',
    );
    expect(cell('Basic Visibility on staging')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Deployment on staging')).toHaveAttribute('data-state', 'denied');
    expect(cell('Deployment on staging')).not.toBeChecked();
    // Another role's permission is not this role's.
    expect(cell('Deployment on sandbox')).toHaveAttribute('data-state', 'denied');
    expect(cell('Basic Visibility on sandbox')).toHaveAttribute('data-state', 'denied');
    expect(screen.queryByText('No permissions set')).not.toBeInTheDocument();
  });

  it('says what its members can and cannot do, and what each column allows (issue 20)', async () => {
    signIn();
    roleServer();
    renderApp('/roles/r-devs/environments');
    const summary = await screen.findByRole(
      'region',
      { name: 'What members of Developers can do' },
      { timeout: 5000 },
    );
    expect(
      within(summary).getByText(/^: Full Visibility, Basic Visibility\. Not: Environment Admin, Deployment/),
    ).toBeInTheDocument();
    expect(within(summary).getByText(/^: nothing; they do not see it\.$/)).toBeInTheDocument();
    expect(screen.getByText(/inherited: given by another\s+scope/)).toBeInTheDocument();
    expect(screen.getByText('Ops: drains, restarts and scaling')).toBeInTheDocument();
  });

  it('creates a permission for a denied cell and deletes it for a granted one', async () => {
    signIn();
    const server = roleServer({
      routes: {
        'POST /api/accounts/12/permissions': () =>
          json(201, { _type: 'permission', id: 'p9', scope: 'read', _links: {} }),
        'DELETE /api/permissions/p2': () => noContent(),
      },
    });
    renderApp('/roles/r-devs/environments');
    await screen.findByRole('table', { name: 'Environment permissions of Developers' }, { timeout: 5000 });
    const user = userEvent.setup();
    await user.click(cell('Full Visibility on sandbox'));
    await waitFor(() => expect(server.callsTo('POST', '/api/accounts/12/permissions')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/accounts/12/permissions')[0]?.body).toEqual({
      role: 'r-devs',
      scope: 'read',
    });
    // Issue 41: "Saved" beside the changed box, told politely, gone after a moment.
    const saved = await screen.findByText('Saved');
    expect(cell('Full Visibility on sandbox').closest('td')).toContainElement(saved);
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent(
      'Saved: Full Visibility on sandbox granted.',
    );
    await waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument(), { timeout: 5000 });
    await waitFor(() => expect(cell('Full Visibility on staging')).not.toHaveAttribute('aria-disabled'));
    await user.click(cell('Full Visibility on staging'));
    await waitFor(() => expect(server.callsTo('DELETE', '/api/permissions/p2')).toHaveLength(1));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
  });

  it('says when the role holds nothing, and when no environment exists', async () => {
    signIn();
    roleServer({ environments: [environmentHal({ id: '12', handle: 'sandbox' })] });
    const first = renderApp('/roles/r-devs/environments');
    expect(await screen.findByText('No permissions set', {}, { timeout: 5000 })).toBeInTheDocument();
    first.unmount();

    roleServer({ environments: [] });
    renderApp('/roles/r-devs/environments');
    expect(
      await screen.findByRole('heading', { name: 'No environments exist' }, { timeout: 5000 }),
    ).toBeInTheDocument();
  });

  it('lets a role admin grant only the scopes they hold', async () => {
    signIn();
    roleServer({
      mine: [DEVS],
      memberships: [membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs', privileged: true })],
    });
    renderApp('/roles/r-devs/environments');
    await screen.findByRole('table', { name: 'Environment permissions of Developers' }, { timeout: 5000 });
    // Ada holds read on staging through Developers: she may grant it elsewhere only where she holds it.
    const deploy = cell('Deployment on staging');
    expect(deploy).toHaveAttribute('aria-disabled', 'true');
    expect(deploy).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('deploy', '11'), 'staging'),
    );
    expect(cell('Full Visibility on staging')).not.toHaveAttribute('aria-disabled');
  });

  it('is read-only for those who cannot manage the role', async () => {
    signIn();
    const server = roleServer({ mine: [DEVS] });
    renderApp('/roles/r-devs/environments');
    await screen.findByRole('table', { name: 'Environment permissions of Developers' }, { timeout: 5000 });
    const denied = cell('Full Visibility on staging');
    expect(denied).toHaveAttribute('aria-disabled', 'true');
    expect(denied).toHaveAccessibleDescription(deniedDescription(permissionMessages.roleManagement));
    // Locked, not disabled: the keyboard reaches it (its tooltip shows on focus); changing it does nothing.
    const user = userEvent.setup();
    await user.click(denied);
    expect(document.activeElement).toBe(denied);
    await user.keyboard(' ');
    expect(denied).toBeChecked();
    expect(server.callsTo('DELETE', '/api/permissions/p2')).toHaveLength(0);
  });
});

describe('role settings (spec 1 §5)', () => {
  it('renames only a changed name and deletes after the typed name matches', async () => {
    signIn();
    const server = roleServer({
      routes: {
        'PUT /auth/roles/r-devs': () =>
          json(200, roleHal({ id: 'r-devs', name: 'Builders', type: 'platform_user' })),
        'DELETE /auth/roles/r-devs': () => noContent(),
      },
    });
    const { router } = renderApp('/roles/r-devs/settings');
    const save = await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
    expect(save).toBeDisabled();
    const user = userEvent.setup();
    const name = screen.getByRole('textbox', { name: 'Role name' });
    await user.clear(name);
    await user.type(name, 'Builders');
    expect(save).toBeEnabled();
    await user.click(save);
    await waitFor(() => expect(server.callsTo('PUT', '/auth/roles/r-devs')).toHaveLength(1));
    expect(server.callsTo('PUT', '/auth/roles/r-devs')[0]?.body).toEqual({ name: 'Builders' });
    expect(await screen.findByText('Saved changes successfully!')).toBeInTheDocument();

    const remove = screen.getByRole('button', { name: 'Delete Role' });
    expect(remove).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Type the role name to confirm' }), 'Developer');
    expect(remove).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Type the role name to confirm' }), 's');
    expect(remove).toBeEnabled();
    await user.click(remove);
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/team/roles'));
    expect(server.callsTo('DELETE', '/auth/roles/r-devs')).toHaveLength(1);
  });

  it('disables rename and delete for those who cannot manage the role', async () => {
    signIn();
    roleServer({ mine: [DEVS] });
    renderApp('/roles/r-devs/settings');
    const save = await screen.findByRole('button', { name: 'Save' }, { timeout: 5000 });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(save).toHaveAccessibleDescription(deniedDescription(permissionMessages.roleManagement));
    expect(screen.getByRole('button', { name: 'Delete Role' })).toHaveAccessibleDescription(
      deniedDescription(permissionMessages.ownerOnly),
    );
    expect(screen.getByRole('textbox', { name: 'Role name' })).toBeDisabled();
  });

  it('lets a role admin rename the role but leaves deleting it to owners', async () => {
    signIn();
    roleServer({
      mine: [DEVS],
      memberships: [membershipHal({ id: 'm1', userId: 'user-1', roleId: 'r-devs', privileged: true })],
    });
    renderApp('/roles/r-devs/settings');
    const name = await screen.findByRole('textbox', { name: 'Role name' }, { timeout: 5000 });
    expect(name).toBeEnabled();
    const remove = screen.getByRole('button', { name: 'Delete Role' });
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    expect(remove).toHaveAccessibleDescription(deniedDescription(permissionMessages.ownerOnly));
  });
});

describe('provisioned roles (spec 1 §6, §8)', () => {
  const SCIM_ROLE = {
    ...roleHal({ id: 'r-devs', name: 'Developers', type: 'platform_user' }),
    scim_created: true,
  };
  const MANAGED = { ...CHARLES, external_id: 'okta-42' };

  it('cannot be edited, and keeps its managed users', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({ user: ADA, roles: [OWNERS, SCIM_ROLE], environments: ENVIRONMENTS }),
      'GET /auth/users/user-1/roles': () => json(200, collection('roles', [OWNERS])),
      'GET /auth/organizations/org-1/roles/memberships': () => json(200, membershipsByRole([])),
      'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, MANAGED])),
      'GET /auth/roles/r-devs/memberships': () =>
        json(
          200,
          collection('memberships', [membershipHal({ id: 'm2', userId: 'user-2', roleId: 'r-devs' })]),
        ),
    });
    const { router } = renderApp('/roles/r-devs/members');
    const remove = await screen.findByRole('button', { name: 'Remove Charles Babbage' }, { timeout: 5000 });
    expect(
      screen.getByText('This role is managed via provisioning and cannot be edited.'),
    ).toBeInTheDocument();
    expect(remove).toHaveAccessibleDescription(
      deniedDescription('Cannot remove: user and role are SCIM-managed'),
    );

    await router.navigate('/roles/r-devs/environments');
    await screen.findByRole('table', { name: 'Environment permissions of Developers' });
    expect(cell('Deployment on staging')).toHaveAttribute('aria-disabled', 'true');
    expect(cell('Deployment on staging')).toHaveAccessibleDescription(
      deniedDescription('This role is managed via provisioning and cannot be edited.'),
    );

    await router.navigate('/roles/r-devs/settings');
    expect(await screen.findByRole('button', { name: 'Save' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Delete Role' })).toHaveAttribute('aria-disabled', 'true');
  });
});
