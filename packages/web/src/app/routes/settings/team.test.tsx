import { memberMessages, permissionMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, HOST, roleHal } from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { invitationHal, memberHal } from '../../../../test/team-fixtures.ts';
import { clearToasts } from '../../../components/ui/toast.tsx';

const OWNERS = roleHal({ id: 'role-1', name: 'Owners', type: 'owner' });
const DEPLOYERS = roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' });
const AUDITORS = roleHal({ id: 'role-3', name: 'Auditors', type: 'compliance_user' });
const WATCHERS = roleHal({ id: 'role-4', name: 'Watchers', type: 'platform_user' });

const ADA = memberHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com', otpEnabled: true });
const BOB = memberHal({ id: 'user-2', name: 'Bob Babbage', email: 'bob@engines.io', verified: false });
const CAROL = memberHal({
  id: 'user-3',
  name: 'Carol, "CJ" Jones',
  email: 'carol@example.com',
  otpEnabled: true,
});

/** Ada owns the organization; Bob deploys; Carol both. `roles` are the caller's own roles. */
function teamServer({
  callerRoles = [OWNERS],
  orgRoles = [OWNERS, DEPLOYERS, AUDITORS],
  memberships = [
    membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-1' }),
    membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
    membershipHal({ id: 'm3', userId: 'user-3', roleId: 'role-1' }),
    membershipHal({ id: 'm4', userId: 'user-3', roleId: 'role-2' }),
  ],
  invitations,
  extra = {},
}: {
  callerRoles?: ReturnType<typeof roleHal>[];
  /** The organization's roles (the role list the edit page offers). */
  orgRoles?: ReturnType<typeof roleHal>[];
  memberships?: ReturnType<typeof membershipHal>[];
  /** The organization's pending invitations, read at each request (a test may change them). */
  invitations?: () => ReturnType<typeof invitationHal>[];
  extra?: Parameters<typeof mockServer>[0];
} = {}) {
  signIn();
  const routes = consoleRoutes({ roles: callerRoles });
  return mockServer({
    ...routes,
    'GET /auth/organizations/org-1/roles': () => json(200, collection('roles', orgRoles)),
    'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, BOB, CAROL])),
    'GET /auth/organizations/org-1/roles/memberships': () => json(200, membershipsByRole(memberships)),
    ...(invitations && {
      'GET /auth/organizations/org-1/invitations': () => json(200, collection('invitations', invitations())),
    }),
    ...extra,
  });
}

/** Opens Bob's roles and ticks Owners: where each save test starts. */
async function openBobTickingOwners() {
  renderApp('/settings/team/members/user-2');
  const user = userEvent.setup();
  await user.click(await screen.findByRole('checkbox', { name: 'Owners' }));
  return user;
}

const table = () => screen.findByRole('table', { name: 'Members' });
const memberNames = async () =>
  within(await table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('settings root (spec 1 §2)', () => {
  it('opens the member list inside the settings navigation', async () => {
    teamServer();
    const { router } = renderApp('/settings');
    expect(await screen.findByRole('heading', { name: 'Members' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/team/members');
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Profile',
      'Security',
      'SSH Keys',
      'Access Tokens',
      'Members',
      'Pending Invites',
      'Roles',
      'Single Sign-On',
      'Provisioning',
      'Organization Settings',
      'Plans',
      'Invoices',
      'Billing Admin',
    ]);
    // The group's heading names its list (an id with spaces would name nothing).
    const group = within(nav).getByRole('list', { name: 'Team Settings' });
    expect(group.getAttribute('aria-labelledby')).not.toMatch(/\s/);
  });
});

describe('members list (spec 1 §2, §5, §9)', () => {
  it('lists name, email, roles, verified and 2FA, linking each member to its edit page', async () => {
    teamServer();
    renderApp('/settings/team/members');
    const bob = await within(await table()).findByRole('row', { name: /Bob Babbage/ });
    expect(
      within(bob)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)
        .slice(0, 5),
    ).toEqual(['Bob Babbage', 'bob@engines.io', 'Deployers', 'No', 'Disabled']);
    expect(within(bob).getByRole('link', { name: 'Bob Babbage' })).toHaveAttribute(
      'href',
      '/settings/team/members/user-2',
    );
  });

  it.each([
    ['verified', ['Ada Lovelace', 'Carol, "CJ" Jones']],
    ['!verified', ['Bob Babbage']],
    ['mfa', ['Ada Lovelace', 'Carol, "CJ" Jones']],
    ['!mfa', ['Bob Babbage']],
    ['ENGINES', ['Bob Babbage']],
    ['carol !mfa', []],
  ])('search %j keeps %j', async (search, names) => {
    teamServer();
    renderApp(`/settings/team/members?search=${encodeURIComponent(search)}`);
    await screen.findByRole('table', { name: 'Members' });
    await waitFor(async () =>
      expect(await memberNames()).toEqual(names.length ? names : ['No resources found']),
    );
  });

  it('exports the CSV columns id, name, email, roles, verified, 2fa', async () => {
    teamServer();
    let blob: Blob | null = null;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((value) => {
      blob = value as Blob;
      return 'blob:members';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderApp('/settings/team/members');
    await within(await table()).findByText('Bob Babbage');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(blob).not.toBeNull();
    expect(await (blob as unknown as Blob).text()).toBe(
      'id,name,email,roles,verified,2fa\r\n' +
        'user-1,Ada Lovelace,ada@example.com,Owners,true,true\r\n' +
        'user-2,Bob Babbage,bob@engines.io,Deployers,false,false\r\n' +
        'user-3,"Carol, ""CJ"" Jones",carol@example.com,"Owners, Deployers",true,true\r\n',
    );
  });

  it('lets an owner remove another member after confirming, never themselves', async () => {
    const server = teamServer({
      extra: { 'DELETE /auth/organizations/org-1/users/user-2': () => noContent() },
    });
    renderApp('/settings/team/members');
    const user = userEvent.setup();
    await within(await table()).findByText('Bob Babbage');

    expect(screen.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.getByRole('button', { name: 'Remove Ada Lovelace' })).toHaveAccessibleDescription(
      deniedDescription('You cannot remove yourself from the organization.'),
    );

    await user.click(screen.getByRole('button', { name: 'Remove Bob Babbage' }));
    expect(server.callsTo('DELETE', '/auth/organizations/org-1/users/user-2')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm remove Bob Babbage' }));
    await waitFor(() =>
      expect(server.callsTo('DELETE', '/auth/organizations/org-1/users/user-2')).toHaveLength(1),
    );
  });

  it('moves focus to Confirm, back to Remove on Cancel, and to the table once the member is gone', async () => {
    let removed = false;
    teamServer({
      extra: {
        'GET /auth/organizations/org-1/users': () =>
          json(200, collection('users', removed ? [ADA, CAROL] : [ADA, BOB, CAROL])),
        'DELETE /auth/organizations/org-1/users/user-2': () => {
          removed = true;
          return noContent();
        },
      },
    });
    renderApp('/settings/team/members');
    const user = userEvent.setup();
    const members = await table();
    await within(members).findByText('Bob Babbage');

    await user.click(screen.getByRole('button', { name: 'Remove Bob Babbage' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm remove Bob Babbage' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Bob Babbage' }));

    // Keyboard only: Enter opens the confirm step, Escape leaves it.
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Confirm remove Bob Babbage' }));
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove Bob Babbage' }));

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(within(members).queryByText('Bob Babbage')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('table', { name: 'Members' })));
  });

  it('shows Remove and Invite disabled with the spec tooltips to a platform user', async () => {
    teamServer({
      callerRoles: [DEPLOYERS],
      memberships: [
        membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2' }),
        membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
      ],
    });
    renderApp('/settings/team/members');
    await within(await table()).findByText('Bob Babbage');
    expect(screen.getByRole('button', { name: 'Remove Bob Babbage' })).toHaveAccessibleDescription(
      deniedDescription(permissionMessages.ownerOnly),
    );
    const invite = screen.getByRole('button', { name: 'Invite' });
    expect(invite).toHaveAttribute('aria-disabled', 'true');
    expect(invite).toHaveAccessibleDescription(deniedDescription('You are not an owner or role admin.'));
  });
});

describe('edit member (spec 1 §4 Role editing)', () => {
  it('enables Save only when the selection changed, and hides compliance roles', async () => {
    teamServer();
    renderApp('/settings/team/members/user-2');
    const deployers = await screen.findByRole('checkbox', { name: 'Deployers' });
    const owners = screen.getByRole('checkbox', { name: 'Owners' });
    expect(screen.queryByRole('checkbox', { name: 'Auditors' })).not.toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const user = userEvent.setup();
    await user.click(owners);
    expect(save).toBeEnabled();
    await user.click(owners);
    expect(save).toBeDisabled();
    expect(deployers).toBeChecked();
  });

  it('does not let the last remaining role be unchecked', async () => {
    teamServer();
    renderApp('/settings/team/members/user-2');
    const deployers = await screen.findByRole('checkbox', { name: 'Deployers' });
    expect(deployers).toBeChecked();
    expect(deployers).toHaveAttribute('aria-disabled', 'true');
    expect(deployers).toHaveAccessibleDescription(deniedDescription(memberMessages.lastRole));
    const user = userEvent.setup();
    // Locked, not disabled: it takes focus (so its tooltip shows) and ignores clicks and Space.
    await user.click(deployers);
    expect(document.activeElement).toBe(deployers);
    await user.keyboard(' ');
    expect(deployers).toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(screen.getByRole('checkbox', { name: 'Owners' }));
    expect(deployers).not.toHaveAttribute('aria-disabled');
    await user.click(deployers);
    expect(deployers).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Owners' })).toHaveAttribute('aria-disabled', 'true');
  });

  it('lets an owner mail a member with 2FA a reset link (POST /otp/resets/new), and only an owner', async () => {
    const bobWithTwoFactor = memberHal({
      id: 'user-2',
      name: 'Bob Babbage',
      email: 'bob@engines.io',
      otpEnabled: true,
    });
    const server = teamServer({
      extra: {
        'GET /auth/organizations/org-1/users': () =>
          json(200, collection('users', [ADA, bobWithTwoFactor, CAROL])),
        'POST /auth/otp/resets/new': () => noContent(),
      },
    });
    renderApp('/settings/team/members/user-2');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Reset 2FA' }));
    await user.click(screen.getByRole('button', { name: 'Email the reset link' }));
    expect(
      await screen.findByText('A reset link was emailed to the member. 2FA stays on until they confirm it.'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/otp/resets/new')[0]?.body).toEqual({ user_id: 'user-2' });
  });

  it('shows Reset 2FA disabled with the owner-only text to a member who is not an owner', async () => {
    const bobWithTwoFactor = memberHal({
      id: 'user-2',
      name: 'Bob Babbage',
      email: 'bob@engines.io',
      otpEnabled: true,
    });
    teamServer({
      callerRoles: [DEPLOYERS],
      extra: {
        'GET /auth/organizations/org-1/users': () =>
          json(200, collection('users', [ADA, bobWithTwoFactor, CAROL])),
      },
    });
    renderApp('/settings/team/members/user-2');
    const reset = await screen.findByRole('button', { name: 'Reset 2FA' });
    expect(reset).toHaveAttribute('aria-disabled', 'true');
    expect(reset).toHaveAccessibleDescription(deniedDescription(permissionMessages.ownerOnly));
  });

  it('adds and removes memberships, then says so', async () => {
    let added = false;
    const server = teamServer({
      extra: {
        'POST /auth/roles/role-1/memberships': () => {
          added = true;
          return json(201, membershipHal({ id: 'm9', userId: 'user-2', roleId: 'role-1' }));
        },
        'DELETE /auth/memberships/m2': () => noContent(),
      },
    });
    const user = await openBobTickingOwners();
    await user.click(screen.getByRole('checkbox', { name: 'Deployers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Successfully updated user roles!')).toBeInTheDocument();
    expect(added).toBe(true);
    expect(server.callsTo('POST', '/auth/roles/role-1/memberships')[0]?.body).toEqual({
      user_url: `${HOST}/auth/users/user-2`,
    });
    expect(server.callsTo('DELETE', '/auth/memberships/m2')).toHaveLength(1);
  });

  it('keeps the old role when the new one cannot be added (a swap never empties the member)', async () => {
    const server = teamServer({
      extra: {
        'POST /auth/roles/role-1/memberships': () =>
          json(403, errorBody(403, 'access_denied', 'Owners are managed elsewhere')),
        'DELETE /auth/memberships/m2': () => noContent(),
      },
    });
    const user = await openBobTickingOwners();
    await user.click(screen.getByRole('checkbox', { name: 'Deployers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Owners are managed elsewhere');
    // contract §5.3: deleting Bob's last membership would have taken him out of the organization.
    expect(server.callsTo('DELETE', '/auth/memberships/m2')).toHaveLength(0);
    expect(screen.queryByText('Successfully updated user roles!')).not.toBeInTheDocument();
  });

  it('collects the failed adds and shows them joined by commas', async () => {
    teamServer({
      orgRoles: [OWNERS, DEPLOYERS, WATCHERS],
      extra: {
        'POST /auth/roles/role-1/memberships': () =>
          json(403, errorBody(403, 'access_denied', 'Owners are managed elsewhere')),
        'POST /auth/roles/role-4/memberships': () =>
          json(422, errorBody(422, 'unprocessable_entity', 'Watchers is full')),
      },
    });
    const user = await openBobTickingOwners();
    await user.click(screen.getByRole('checkbox', { name: 'Watchers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Owners are managed elsewhere, Watchers is full',
    );
  });

  it('keeps the joined failures of a partly failed save after the memberships reload', async () => {
    let saved = false;
    const before = [
      membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-1' }),
      membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
      membershipHal({ id: 'm5', userId: 'user-2', roleId: 'role-4' }),
    ];
    const server = teamServer({
      orgRoles: [OWNERS, DEPLOYERS, WATCHERS],
      extra: {
        // After the save Bob holds Owners too: his roles changed, the form must stay (with its error).
        'GET /auth/organizations/org-1/roles/memberships': () =>
          json(
            200,
            membershipsByRole(
              saved ? [...before, membershipHal({ id: 'm9', userId: 'user-2', roleId: 'role-1' })] : before,
            ),
          ),
        'POST /auth/roles/role-1/memberships': () => {
          saved = true;
          return json(201, membershipHal({ id: 'm9', userId: 'user-2', roleId: 'role-1' }));
        },
        'DELETE /auth/memberships/m2': () => json(404, errorBody(404, 'not_found', 'Membership not found')),
        'DELETE /auth/memberships/m5': () =>
          json(403, errorBody(403, 'access_denied', 'Watchers is managed elsewhere')),
      },
    });
    const user = await openBobTickingOwners();
    await user.click(screen.getByRole('checkbox', { name: 'Deployers' }));
    await user.click(screen.getByRole('checkbox', { name: 'Watchers' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Membership not found, Watchers is managed elsewhere',
    );
    expect(server.callsTo('GET', '/auth/organizations/org-1/roles/memberships').length).toBeGreaterThan(1);
    // The reload is in and the error is still there; the unsaved part of the choice can be saved again.
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Owners' })).toBeChecked());
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Membership not found, Watchers is managed elsewhere',
    );
    expect(screen.getByRole('checkbox', { name: 'Deployers' })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();
    expect(screen.queryByText('Successfully updated user roles!')).not.toBeInTheDocument();
  });

  it('locks roles the caller does not administer', async () => {
    teamServer({
      callerRoles: [DEPLOYERS],
      memberships: [
        membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2', privileged: true }),
        membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
      ],
      orgRoles: [OWNERS, DEPLOYERS, WATCHERS],
    });
    renderApp('/settings/team/members/user-2');
    const watchers = await screen.findByRole('checkbox', { name: 'Watchers' });
    expect(watchers).toHaveAttribute('aria-disabled', 'true');
    expect(watchers).toHaveAccessibleDescription(deniedDescription('You are not an owner or role admin.'));
    expect(screen.getByRole('checkbox', { name: 'Owners' })).toHaveAttribute('aria-disabled', 'true');
    await userEvent.setup().click(watchers);
    expect(watchers).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
  });
});

describe('invite (spec 1 §5)', () => {
  it('requires a valid email and a role', async () => {
    const server = teamServer();
    renderApp('/settings/team/invite');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Email must not be empty')).toBeInTheDocument();
    expect(screen.getByText('A role is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Must provide valid email')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/roles/role-2/invitations')).toHaveLength(0);
    // Compliance roles are not offered.
    expect(screen.getByRole('combobox', { name: 'Role' })).not.toHaveTextContent('Auditors');
  });

  it("sends the invitation, says 'Invitation sent to {email}' and opens the pending invites", async () => {
    const server = teamServer({
      invitations: () => [invitationHal({ email: 'dan@example.com' })],
      extra: {
        'POST /auth/roles/role-2/invitations': () => json(201, invitationHal({ email: 'dan@example.com' })),
      },
    });
    const { router } = renderApp('/settings/team/invite');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'Dan@Example.com');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Deployers');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('Invitation sent to dan@example.com')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/team/pending-invites'));
    expect(server.callsTo('POST', '/auth/roles/role-2/invitations')[0]?.body).toEqual({
      email: 'dan@example.com',
      origin: 'app',
    });
  });

  it("sums up the chosen role from the server's answer of where it reaches, counting what the inviter cannot see", async () => {
    const server = teamServer({
      extra: {
        'GET /auth/roles/role-2/environment_access': () =>
          json(200, {
            _type: 'role_environment_access',
            environments: [{ id: '12', handle: 'staging', scopes: ['tunnel'] }],
            unseen_environment_count: 2,
            unlisted_environment_count: 0,
            _links: {
              self: { href: '/auth/roles/role-2/environment_access' },
              role: { href: '/auth/roles/role-2' },
            },
          }),
      },
    });
    renderApp('/settings/team/invite');
    const role = await screen.findByRole('combobox', { name: 'Role' });
    await userEvent.setup().selectOptions(role, 'Deployers');
    const summary =
      'In staging: can see its apps and databases, but not their configuration; open tunnels into ' +
      'databases, without seeing their passwords. Also reaches 2 environments you cannot see; an owner ' +
      'can tell you what it may do there.';
    await waitFor(() => expect(role).toHaveAccessibleDescription(summary));
    expect(server.callsTo('GET', '/auth/roles/role-2/environment_access')).toHaveLength(1);
    // The owner type is summed up by its type: nothing to read.
    await userEvent.setup().selectOptions(role, 'Owners');
    expect(role).toHaveAccessibleDescription(
      'Can do everything: every environment, billing, members, roles and organization settings.',
    );
    expect(server.callsTo('GET', '/auth/roles/role-1/environment_access')).toHaveLength(0);
  });

  it("shows the server's message", async () => {
    teamServer({
      extra: {
        'POST /auth/roles/role-2/invitations': () =>
          json(422, errorBody(422, 'unprocessable_entity', 'This person is already a member')),
      },
    });
    renderApp('/settings/team/invite?role_id=role-2');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Email' }), 'bob@engines.io');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This person is already a member');
  });
});

describe('pending invites (spec 1 §2, §8)', () => {
  it("says 'No pending invitations' when there are none", async () => {
    teamServer({
      invitations: () => [],
    });
    renderApp('/settings/team/pending-invites');
    expect(await screen.findByRole('heading', { name: 'No pending invitations' })).toBeInTheDocument();
  });

  it('drops an invitation accepted elsewhere on its next look, every 15 s (issue 20)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let accepted = false;
      teamServer({
        invitations: () => (accepted ? [] : [invitationHal({ id: 'inv-1', email: 'dan@example.com' })]),
      });
      renderApp('/settings/team/pending-invites');
      const list = await screen.findByRole('table', { name: 'Pending invitations' });
      expect(await within(list).findByRole('row', { name: /dan@example\.com/ })).toBeInTheDocument();
      accepted = true;
      await vi.advanceTimersByTimeAsync(15_500);
      expect(await screen.findByText('No pending invitations')).toBeInTheDocument();
      expect(screen.queryByText('dan@example.com')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('lists email, role, inviter and expiry; resends and revokes with their toasts', async () => {
    const server = teamServer({
      invitations: () => [
        invitationHal({ id: 'inv-1', email: 'dan@example.com' }),
        invitationHal({ id: 'inv-2', email: 'eve@example.com', expiresAt: '2020-01-01T00:00:00.000Z' }),
      ],
      extra: {
        'POST /auth/resets': () => noContent(),
        'DELETE /auth/invitations/inv-2': () => noContent(),
      },
    });
    renderApp('/settings/team/pending-invites');
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    const dan = await within(list).findByRole('row', { name: /dan@example\.com/ });
    expect(
      within(dan)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)[1],
    ).toBe('Deployers');
    expect(
      within(dan)
        .getAllByRole('cell')
        .map((cell) => cell.textContent)[2],
    ).toBe('Ada Lovelace');
    expect(dan).toHaveTextContent('Pending');
    expect(within(list).getByRole('row', { name: /eve@example\.com/ })).toHaveTextContent('Expired');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Resend invitation to dan@example.com' }));
    expect(await screen.findByText('Resent invitation to user')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/resets')[0]?.body).toEqual({
      type: 'invitation',
      origin: 'app',
      invitation_id: 'inv-1',
    });

    await user.click(screen.getByRole('button', { name: 'Revoke invitation to eve@example.com' }));
    await user.click(screen.getByRole('button', { name: 'Confirm revoke eve@example.com' }));
    expect(await screen.findByText('Revoked invitation')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/invitations/inv-2')).toHaveLength(1);
  });

  it('moves focus to Confirm, back to Revoke on Escape, and to the table once the invitation is gone', async () => {
    let revoked = false;
    teamServer({
      invitations: () => [
        invitationHal({ id: 'inv-1', email: 'dan@example.com' }),
        ...(revoked ? [] : [invitationHal({ id: 'inv-2', email: 'eve@example.com' })]),
      ],
      extra: {
        'DELETE /auth/invitations/inv-2': () => {
          revoked = true;
          return noContent();
        },
      },
    });
    renderApp('/settings/team/pending-invites');
    const user = userEvent.setup();
    const list = await screen.findByRole('table', { name: 'Pending invitations' });
    const revoke = await within(list).findByRole('button', { name: 'Revoke invitation to eve@example.com' });

    await user.click(revoke);
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Confirm revoke eve@example.com' }),
    );
    await user.keyboard('{Escape}');
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Revoke invitation to eve@example.com' }),
    );

    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Confirm revoke eve@example.com' }));
    expect(await screen.findByText('Revoked invitation')).toBeInTheDocument();
    await waitFor(() => expect(within(list).queryByText('eve@example.com')).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement).toBe(list));
  });

  it('disables Resend and Revoke for roles the caller does not administer', async () => {
    teamServer({
      callerRoles: [DEPLOYERS],
      // Ada administers Watchers, not Deployers, the invitation's role.
      memberships: [
        membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2' }),
        membershipHal({ id: 'm6', userId: 'user-1', roleId: 'role-4', privileged: true }),
      ],
      orgRoles: [OWNERS, DEPLOYERS, WATCHERS],
      invitations: () => [invitationHal({ email: 'dan@example.com' })],
    });
    renderApp('/settings/team/pending-invites');
    const resend = await screen.findByRole('button', { name: 'Resend invitation to dan@example.com' });
    expect(resend).toHaveAttribute('aria-disabled', 'true');
    expect(resend).toHaveAccessibleDescription(deniedDescription('You are not an owner or role admin.'));
  });

  it('waits for the memberships before offering a role admin Resend and Revoke', async () => {
    let release: () => void = () => {};
    const memberships = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = teamServer({
      callerRoles: [DEPLOYERS],
      invitations: () => [invitationHal({ email: 'dan@example.com' })],
      extra: {
        'GET /auth/organizations/org-1/roles/memberships': async () => {
          await memberships;
          return json(
            200,
            membershipsByRole([
              membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2', privileged: true }),
            ]),
          );
        },
      },
    });
    renderApp('/settings/team/pending-invites');
    expect(await screen.findByRole('heading', { name: 'Pending Invites' })).toBeInTheDocument();
    // Not yet known to be Deployers' admin: no disabled buttons in the meantime, and nothing asked.
    expect(screen.queryByRole('button', { name: /Resend invitation/ })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/auth/organizations/org-1/invitations')).toHaveLength(0);

    release();
    const resend = await screen.findByRole('button', { name: 'Resend invitation to dan@example.com' });
    expect(resend).not.toHaveAttribute('aria-disabled');
    expect(screen.getByRole('button', { name: 'Revoke invitation to dan@example.com' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  it('shows why the page is empty to a member who manages no role, and leaves it out of the navigation', async () => {
    const server = teamServer({
      callerRoles: [DEPLOYERS],
      memberships: [membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2' })],
    });
    renderApp('/settings/team/pending-invites');
    const banner = await screen.findByRole('alert');
    expect(banner).toHaveTextContent('Only owners and role admins see pending invitations');
    expect(banner).toHaveTextContent('You are not an owner or role admin.');
    expect(screen.queryByRole('table', { name: 'Pending invitations' })).not.toBeInTheDocument();
    // The server would answer 403: the console does not ask.
    expect(server.callsTo('GET', '/auth/organizations/org-1/invitations')).toHaveLength(0);
    const nav = screen.getByRole('navigation', { name: 'Settings' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Profile',
      'Security',
      'SSH Keys',
      'Access Tokens',
      'Members',
      'Roles',
      'Single Sign-On',
      'Provisioning',
      'Organization Settings',
      'Plans',
      'Invoices',
      'Billing Admin',
    ]);
  });

  it("says so when the server refuses the list (403), and shows a failed load's error", async () => {
    teamServer({
      callerRoles: [DEPLOYERS],
      memberships: [membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-2', privileged: true })],
      extra: {
        'GET /auth/organizations/org-1/invitations': () =>
          json(403, errorBody(403, 'forbidden', 'You are not an owner or role admin.')),
      },
    });
    const first = renderApp('/settings/team/pending-invites');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Only owners and role admins see pending invitations',
    );
    first.unmount();

    teamServer({
      extra: {
        'GET /auth/organizations/org-1/roles/memberships': () =>
          json(500, errorBody(500, 'internal_error', 'Memberships are unavailable')),
      },
    });
    renderApp('/settings/team/pending-invites');
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Memberships are unavailable');
    expect(screen.queryByRole('button', { name: /Resend invitation/ })).not.toBeInTheDocument();
  });
});
