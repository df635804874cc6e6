import type { SamlConfigurationResource, WhitelistMembershipResource } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, organizationHal, roleHal } from '../../../../test/fixtures.ts';
import { membershipHal, membershipsByRole } from '../../../../test/membership-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { memberHal } from '../../../../test/team-fixtures.ts';
import { clearToasts } from '../../../components/ui/toast.tsx';

const AUTH = 'http://berth.test/auth';
const TIMESTAMP = '2025-01-01T00:00:00.000Z';
const OWNERS = roleHal({ id: 'role-1', name: 'Owners', type: 'owner' });
const DEPLOYERS = roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' });
const ADA = memberHal({ id: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com' });
const GRACE = memberHal({ id: 'user-2', name: 'Grace Hopper', email: 'grace@example.com' });
const ALAN = memberHal({ id: 'user-3', name: 'Alan Turing', email: 'alan@example.com' });

function samlConfigurationHal(): SamlConfigurationResource {
  return {
    id: 'saml-1',
    _type: 'saml_configuration',
    entity_id: 'https://idp.example.com/entity',
    sign_in_url: 'https://idp.example.com/sso',
    sign_out_url: '',
    name_format: '',
    certificate: 'MIIC',
    certificate_fingerprint: 'AB:CD',
    certificate_fingerprint_algo: 'sha256',
    aptible_certificate: 'MIID',
    aptible_private_key: '',
    metadata_url: null,
    handle: null,
    jit_enabled: false,
    default_role_id: null,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: `${AUTH}/saml_configurations/saml-1` },
      organization: { href: `${AUTH}/organizations/org-1` },
      sso_login: { href: `${AUTH}/organizations/org-1/saml/login` },
      sp_metadata: { href: `${AUTH}/organizations/org-1/saml/metadata` },
      acs: { href: `${AUTH}/organizations/org-1/saml/consume` },
    },
  };
}

function whitelistMembershipHal(id: string, userId: string): WhitelistMembershipResource {
  return {
    id,
    _type: 'whitelist_membership',
    deleted_at: null,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: `${AUTH}/whitelist_memberships/${id}` },
      organization: { href: `${AUTH}/organizations/org-1` },
      user: { href: `${AUTH}/users/${userId}` },
    },
  };
}

/**
 * The organization, its SAML configuration and its SSO exception list as the server holds them: the
 * PATCH, POST and DELETE change them and the next GET reads them back.
 */
function ssoServer({
  configured = true,
  callerRoles = [OWNERS],
  exceptions = [] as WhitelistMembershipResource[],
  patch,
  post,
}: {
  configured?: boolean;
  callerRoles?: ReturnType<typeof roleHal>[];
  exceptions?: WhitelistMembershipResource[];
  patch?: (call: RecordedCall) => Response;
  post?: (call: RecordedCall) => Response;
} = {}) {
  signIn();
  let organization: Record<string, unknown> = organizationHal();
  let list = [...exceptions];
  return mockServer({
    ...consoleRoutes({ roles: callerRoles }),
    'GET /auth/organizations': () => json(200, collection('organizations', [organization])),
    'GET /auth/organizations/org-1/roles': () => json(200, collection('roles', [OWNERS, DEPLOYERS])),
    'GET /auth/organizations/org-1/users': () => json(200, collection('users', [ADA, GRACE, ALAN])),
    'GET /auth/organizations/org-1/roles/memberships': () =>
      json(
        200,
        membershipsByRole([
          membershipHal({ id: 'm1', userId: 'user-1', roleId: 'role-1' }),
          membershipHal({ id: 'm2', userId: 'user-2', roleId: 'role-2' }),
          membershipHal({ id: 'm3', userId: 'user-3', roleId: 'role-2' }),
        ]),
      ),
    'GET /auth/saml_configurations': () =>
      json(200, collection('saml_configurations', configured ? [samlConfigurationHal()] : [])),
    'PATCH /auth/organizations/org-1':
      patch ??
      ((call) => {
        organization = { ...organization, ...(call.body as Record<string, unknown>) };
        return json(200, organization);
      }),
    'GET /auth/organizations/org-1/whitelist_memberships': () =>
      json(200, collection('whitelist_memberships', list)),
    'POST /auth/organizations/org-1/whitelist_memberships':
      post ??
      ((call) => {
        const created = whitelistMembershipHal(
          `wm-${list.length + 1}`,
          (call.body as { user_id: string }).user_id,
        );
        list = [...list, created];
        return json(201, created);
      }),
    'DELETE /auth/whitelist_memberships/wm-1': () => {
      list = list.filter((entry) => entry.id !== 'wm-1');
      return new Response(null, { status: 204 });
    },
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('SSO enforcement on the Single Sign-On page (spec 1 §4, §6)', () => {
  it('enables enforcement with the spec’s toast, and disables it again', async () => {
    const server = ssoServer();
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Enforce SSO' });
    expect(section).toHaveTextContent('SSO is not enforced');

    await user.click(within(section).getByRole('button', { name: 'Enable SSO enforcement' }));
    expect(await screen.findByText('Successfully enabled organization SSO enforcement!')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/organizations/org-1')[0]?.body).toEqual({ sso_enforced: true });
    expect(await within(section).findByText(/SSO is enforced/)).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Disable SSO enforcement' }));
    await waitFor(() => expect(server.callsTo('PATCH', '/auth/organizations/org-1')).toHaveLength(2));
    expect(server.callsTo('PATCH', '/auth/organizations/org-1')[1]?.body).toEqual({ sso_enforced: false });
    expect(await within(section).findByText(/SSO is not enforced/)).toBeInTheDocument();
  });

  it('shows the server’s refusal and keeps the state as it was', async () => {
    ssoServer({
      patch: () =>
        json(422, errorBody(422, 'unprocessable_entity', 'Configure Single Sign-On before enforcing it')),
    });
    renderApp('/settings/team/sso');
    const section = await screen.findByRole('region', { name: 'Enforce SSO' });
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Enable SSO enforcement' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Configure Single Sign-On before enforcing it',
    );
    expect(section).toHaveTextContent('SSO is not enforced');
    expect(screen.queryByText('Successfully enabled organization SSO enforcement!')).not.toBeInTheDocument();
  });

  it('offers neither enforcement nor the exception list before SSO is configured', async () => {
    const server = ssoServer({ configured: false });
    renderApp('/settings/team/sso');
    await waitFor(() => expect(server.callsTo('GET', '/auth/saml_configurations')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Enforce SSO' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'SSO exception list' })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/auth/organizations/org-1/whitelist_memberships')).toHaveLength(0);
  });
});

describe('the SSO exception list (spec 1 §6 bypass allow-list)', () => {
  it('says when nobody is on it, and adds a member chosen from the members who are not owners', async () => {
    const server = ssoServer();
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'SSO exception list' });
    expect(await within(section).findByText('No users added to SSO exception list')).toBeInTheDocument();

    const chooser = within(section).getByRole('combobox', { name: 'Member' });
    // spec 1 §6: owners cannot be added (Ada is the Account Owner).
    await waitFor(() =>
      expect(
        within(chooser).getByRole('option', { name: 'Grace Hopper (grace@example.com)' }),
      ).toBeInTheDocument(),
    );
    expect(within(chooser).queryByRole('option', { name: /Ada Lovelace/ })).not.toBeInTheDocument();

    await user.selectOptions(chooser, 'user-2');
    await user.click(within(section).getByRole('button', { name: 'Add' }));
    const table = await within(section).findByRole('table', { name: 'SSO exception list' });
    expect(await within(table).findByText('Grace Hopper')).toBeInTheDocument();
    expect(within(table).getByText('grace@example.com')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/organizations/org-1/whitelist_memberships')[0]?.body).toEqual({
      user_id: 'user-2',
    });
    // Someone on the list is not offered again.
    expect(within(chooser).queryByRole('option', { name: /Grace Hopper/ })).not.toBeInTheDocument();
  });

  it('asks for a member before adding, with the spec’s message', async () => {
    const server = ssoServer();
    renderApp('/settings/team/sso');
    const section = await screen.findByRole('region', { name: 'SSO exception list' });
    await userEvent.setup().click(within(section).getByRole('button', { name: 'Add' }));
    expect(await within(section).findByText('SSO bypass: a user must be chosen')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/organizations/org-1/whitelist_memberships')).toHaveLength(0);
  });

  it('shows the server’s refusal of an addition', async () => {
    ssoServer({
      post: () =>
        json(422, errorBody(422, 'unprocessable_entity', 'This user is already on the SSO exception list')),
    });
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'SSO exception list' });
    const chooser = within(section).getByRole('combobox', { name: 'Member' });
    await waitFor(() => expect(within(chooser).getAllByRole('option').length).toBeGreaterThan(1));
    await user.selectOptions(chooser, 'user-3');
    await user.click(within(section).getByRole('button', { name: 'Add' }));
    expect(
      await within(section).findByText('This user is already on the SSO exception list'),
    ).toBeInTheDocument();
  });

  it('removes a member after confirmation', async () => {
    const server = ssoServer({ exceptions: [whitelistMembershipHal('wm-1', 'user-3')] });
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'SSO exception list' });
    const table = await within(section).findByRole('table', { name: 'SSO exception list' });
    expect(await within(table).findByText('Alan Turing')).toBeInTheDocument();

    await user.click(
      within(table).getByRole('button', { name: 'Remove Alan Turing from the SSO exception list' }),
    );
    await user.click(await within(table).findByRole('button', { name: 'Confirm remove Alan Turing' }));
    expect(await within(section).findByText('No users added to SSO exception list')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/whitelist_memberships/wm-1')).toHaveLength(1);
  });
});
