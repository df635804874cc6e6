import {
  permissionMessages,
  type ScimConfigurationResource,
  scimConfigurationMessages,
  scimMessages,
  toastMessages,
} from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import {
  collection,
  errorBody,
  HOST,
  organizationHal,
  roleHal,
  tokenHal,
} from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { memberHal } from '../../../../test/team-fixtures.ts';
import { clearToasts } from '../../../components/ui/toast.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

const AUTH = `${HOST}/auth`;
const TIMESTAMP = '2026-01-02T03:04:05.000Z';
const SCIM_TOKEN = 'scim-6b1f0c2a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e';
const OWNERS = roleHal({ id: 'role-1', name: 'Owners', type: 'owner' });
const DEPLOYERS = roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' });
const WATCHERS = roleHal({ id: 'role-4', name: 'Watchers', type: 'platform_user' });
/** A group the identity provider pushed (spec 1 §3 role.scimCreated). */
const ENGINEERS = {
  ...roleHal({ id: 'role-5', name: 'Engineers', type: 'platform_user' }),
  scim_created: true,
};

function scimConfigurationHal(
  options: { defaultRoleId?: string; tokenId?: string } = {},
): ScimConfigurationResource {
  return {
    id: 'scim-1',
    _type: 'scim_configuration',
    organization_id: 'org-1',
    default_role_id: options.defaultRoleId ?? 'role-2',
    token_id: options.tokenId ?? '',
    unique_identifier: 'email',
    token_created_at: options.tokenId ? TIMESTAMP : null,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: `${AUTH}/scim_configurations/scim-1` },
      organization: { href: `${AUTH}/organizations/org-1` },
      default_role: { href: `${AUTH}/roles/${options.defaultRoleId ?? 'role-2'}` },
      scim_base: { href: `${HOST}/scim/v2` },
    },
  };
}

function elevate() {
  sessionStore.setElevatedToken(
    fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
  );
}

/** The Account Owner of one organization, with `configurations` as the server holds them. */
function provisioningServer({
  configurations,
  callerRoles = [OWNERS],
  organizations = [organizationHal()],
  extra = {},
}: {
  configurations: () => ScimConfigurationResource[];
  callerRoles?: ReturnType<typeof roleHal>[];
  organizations?: ReturnType<typeof organizationHal>[];
  extra?: Parameters<typeof mockServer>[0];
}) {
  signIn();
  return mockServer({
    ...consoleRoutes({ roles: callerRoles, organizations }),
    'GET /auth/organizations/org-1/roles': () =>
      json(200, collection('roles', [OWNERS, DEPLOYERS, WATCHERS, ENGINEERS])),
    'GET /auth/scim_configurations': () => json(200, collection('scim_configurations', configurations())),
    ...extra,
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('/settings/team/scim (spec 1 §2, §3, §5, §6; spec 3 SCIM page)', () => {
  it('is listed under Team Settings and offers the create form with no configuration', async () => {
    provisioningServer({ configurations: () => [] });
    renderApp('/settings/team/scim');
    const nav = await screen.findByRole('navigation', { name: 'Settings' });
    expect(within(nav).getByRole('link', { name: 'Provisioning' })).toHaveAttribute(
      'href',
      '/settings/team/scim',
    );
    const role = await screen.findByLabelText('Default Role');
    // A role provisioning manages cannot be everyone's default.
    expect(within(role).queryByRole('option', { name: 'Engineers' })).not.toBeInTheDocument();
    // Nor can the Account Owner role: every provisioned user would be an owner.
    expect(within(role).queryByRole('option', { name: 'Owners' })).not.toBeInTheDocument();
    expect(within(role).getByRole('option', { name: 'Deployers' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set up provisioning' })).toBeEnabled();
  });

  it("asks for a default role ('must select Default Role') before sending", async () => {
    const server = provisioningServer({ configurations: () => [] });
    renderApp('/settings/team/scim');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up provisioning' }));
    expect(await screen.findByText(scimConfigurationMessages.defaultRoleRequired)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/scim_configurations')).toHaveLength(0);
  });

  it('creates the configuration, then generates the token with the elevated token and shows it once', async () => {
    const configurations: ScimConfigurationResource[] = [];
    const server = provisioningServer({
      configurations: () => configurations,
      extra: {
        'POST /auth/scim_configurations': () => {
          configurations.push(scimConfigurationHal());
          return json(201, scimConfigurationHal());
        },
        'POST /auth/scim_configurations/generate_token': () => {
          configurations.splice(0, 1, scimConfigurationHal({ tokenId: 'tok-scim-1' }));
          return json(201, { token: SCIM_TOKEN });
        },
      },
    });
    elevate();
    renderApp('/settings/team/scim');
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Default Role'), 'role-2');
    await user.click(screen.getByRole('button', { name: 'Set up provisioning' }));
    expect(server.callsTo('POST', '/auth/scim_configurations')[0]?.body).toEqual({
      scim_configuration: { organization_id: 'org-1', default_role_id: 'role-2', unique_identifier: 'email' },
    });

    // What the identity provider is given.
    const connection = await screen.findByRole('region', { name: 'Connect your identity provider' });
    expect(within(connection).getByText(`${HOST}/scim/v2`)).toBeInTheDocument();
    expect(within(connection).getByText('None yet: generate one')).toBeInTheDocument();

    await user.click(within(connection).getByRole('button', { name: 'Generate token' }));
    expect(await screen.findByText(SCIM_TOKEN)).toBeInTheDocument();
    expect(screen.getByText(scimConfigurationMessages.tokenShownOnce)).toBeInTheDocument();
    expect(screen.getByText(toastMessages.tokenGenerated)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy the SCIM token' })).toBeInTheDocument();
    const generate = server.callsTo('POST', '/auth/scim_configurations/generate_token');
    expect(generate[0]?.body).toEqual({ scim_configuration_id: 'scim-1', user_id: 'user-1' });
    expect(generate[0]?.headers.Authorization).toBe(
      `Bearer ${sessionStore.getState().elevatedToken?.accessToken}`,
    );

    // Done forgets it for good: the page then says only when it was made.
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText(SCIM_TOKEN)).not.toBeInTheDocument();
    expect(await within(connection).findByText(/^Generated /)).toBeInTheDocument();
  });

  it('asks for the password again before a token is made', async () => {
    const server = provisioningServer({ configurations: () => [scimConfigurationHal()] });
    const { router } = renderApp('/settings/team/scim');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Generate token' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/elevate'));
    expect(router.state.location.search).toContain('redirect=%2Fsettings%2Fteam%2Fscim');
    expect(server.callsTo('POST', '/auth/scim_configurations/generate_token')).toHaveLength(0);
  });

  it('warns that a new token stops the old one before replacing it, and shows the server’s refusal', async () => {
    const server = provisioningServer({
      configurations: () => [scimConfigurationHal({ tokenId: 'tok-scim-1' })],
      extra: {
        'POST /auth/scim_configurations/generate_token': [
          () => json(403, errorBody(403, 'forbidden', scimConfigurationMessages.singleOrganization)),
          () => json(201, { token: SCIM_TOKEN }),
        ],
      },
    });
    elevate();
    renderApp('/settings/team/scim');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Generate new token' }));
    expect(screen.getByText(scimConfigurationMessages.regenerateWarning)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/scim_configurations/generate_token')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm generate new token' }));
    expect(await screen.findByText(scimConfigurationMessages.singleOrganization)).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Generate new token' }));
    await user.click(screen.getByRole('button', { name: 'Confirm generate new token' }));
    expect(await screen.findByText(SCIM_TOKEN)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/scim_configurations/generate_token')).toHaveLength(2);
  });

  it('changes the default role on the edit form', async () => {
    let configuration = scimConfigurationHal({ tokenId: 'tok-scim-1' });
    const server = provisioningServer({
      configurations: () => [configuration],
      extra: {
        'PATCH /auth/scim_configurations/scim-1': () => {
          configuration = scimConfigurationHal({ tokenId: 'tok-scim-1', defaultRoleId: 'role-4' });
          return json(200, configuration);
        },
      },
    });
    renderApp('/settings/team/scim');
    const user = userEvent.setup();
    const role = await screen.findByLabelText('Default Role');
    expect(role).toHaveValue('role-2');
    await user.selectOptions(role, 'role-4');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/auth/scim_configurations/scim-1')).toHaveLength(1));
    expect(server.callsTo('PATCH', '/auth/scim_configurations/scim-1')[0]?.body).toEqual({
      scim_configuration: { organization_id: 'org-1', default_role_id: 'role-4' },
    });
    expect(await screen.findByText(toastMessages.saved)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Default Role')).toHaveValue('role-4'));
  });

  it('deletes the configuration after a warning, back to the create form', async () => {
    let configurations = [scimConfigurationHal({ tokenId: 'tok-scim-1' })];
    const server = provisioningServer({
      configurations: () => configurations,
      extra: {
        'DELETE /auth/scim_configurations/scim-1': () => {
          configurations = [];
          return noContent();
        },
      },
    });
    renderApp('/settings/team/scim');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete configuration' }));
    expect(screen.getByText(scimConfigurationMessages.deleteWarning)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm delete configuration' }));
    expect(await screen.findByRole('button', { name: 'Set up provisioning' })).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/scim_configurations/scim-1')).toHaveLength(1);
  });

  it('is disabled with the reason for a member who is not the Account Owner, and never asked', async () => {
    const server = provisioningServer({ configurations: () => [], callerRoles: [DEPLOYERS] });
    renderApp('/settings/team/scim');
    const submit = await screen.findByRole('button', { name: 'Set up provisioning' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription(deniedDescription(permissionMessages.ownerOnly));
    expect(screen.getByText(permissionMessages.ownerOnly, { selector: '.banner-text' })).toBeInTheDocument();
    expect(server.callsTo('GET', '/auth/scim_configurations')).toHaveLength(0);
  });

  it('is disabled for an Account Owner of more than one organization (spec 1 §6)', async () => {
    provisioningServer({
      configurations: () => [],
      organizations: [organizationHal(), organizationHal({ id: 'org-2', name: 'Difference Engines' })],
    });
    renderApp('/settings/team/scim');
    const submit = await screen.findByRole('button', { name: 'Set up provisioning' });
    expect(submit).toHaveAccessibleDescription(
      deniedDescription(scimConfigurationMessages.singleOrganization),
    );
    expect(
      screen.getByText(scimConfigurationMessages.singleOrganization, { selector: '.banner-text' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Default Role')).toBeDisabled();
  });
});

describe('members provisioning manages (spec 1 §6, §8)', () => {
  const ADA = memberHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' });
  const GRACE = memberHal({
    id: 'user-2',
    name: 'Grace Hopper',
    email: 'grace@example.com',
    externalId: 'okta-7',
  });

  function membersServer() {
    signIn();
    return mockServer({
      ...consoleRoutes({ roles: [OWNERS] }),
      'GET /auth/organizations/org-1/roles': () =>
        json(200, collection('roles', [OWNERS, DEPLOYERS, WATCHERS, ENGINEERS])),
      'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, GRACE])),
      'GET /auth/organizations/org-1/roles/memberships': () =>
        json(
          200,
          membershipsByRole([
            membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-1' }),
            membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
            membershipHal({ id: 'm3', userId: 'user-2', roleId: 'role-5' }),
          ]),
        ),
    });
  }

  it('marks a provisioned member in the list, and the Account Owner cannot remove them', async () => {
    membersServer();
    renderApp('/settings/team/members');
    const table = await screen.findByRole('table', { name: 'Members' });
    const grace = await within(table).findByRole('row', { name: /Grace Hopper/ });
    expect(within(grace).getByText('SCIM')).toHaveAttribute('title', scimMessages.userLocked);
    expect(within(grace).getByRole('button', { name: /Remove/ })).toHaveAttribute('aria-disabled', 'true');
    const ada = within(table).getByRole('row', { name: /Ada Lovelace/ });
    expect(within(ada).queryByText('SCIM')).not.toBeInTheDocument();
  });

  it('locks a provisioned member’s managed roles with the spec’s words, and leaves the others free', async () => {
    membersServer();
    renderApp('/settings/team/members/user-2');
    expect(await screen.findByText(scimMessages.userLocked)).toBeInTheDocument();
    const engineers = await screen.findByRole('checkbox', { name: 'Engineers' });
    expect(engineers).toBeChecked();
    expect(engineers).toHaveAttribute('aria-disabled', 'true');
    expect(engineers).toHaveAccessibleDescription(deniedDescription(scimMessages.cannotRemove));
    const watchers = screen.getByRole('checkbox', { name: 'Watchers' });
    expect(watchers).not.toHaveAttribute('aria-disabled');
    const user = userEvent.setup();
    await user.click(engineers);
    expect(engineers).toBeChecked();
  });

  it('does not let a managed role be added to a provisioned member who lacks it', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({ roles: [OWNERS] }),
      'GET /auth/organizations/org-1/roles': () =>
        json(200, collection('roles', [OWNERS, DEPLOYERS, ENGINEERS])),
      'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, GRACE])),
      'GET /auth/organizations/org-1/roles/memberships': () =>
        json(
          200,
          membershipsByRole([
            membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-1' }),
            membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
          ]),
        ),
    });
    renderApp('/settings/team/members/user-2');
    const engineers = await screen.findByRole('checkbox', { name: 'Engineers' });
    expect(engineers).not.toBeChecked();
    expect(engineers).toHaveAccessibleDescription(deniedDescription(scimMessages.cannotAdd));
  });
});
