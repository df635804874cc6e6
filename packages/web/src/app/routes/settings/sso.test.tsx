import { encodeSamlMetadata, type SamlConfigurationResource } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, organizationHal, roleHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { clearToasts } from '../../../components/ui/toast.tsx';

const AUTH = 'http://berth.test/auth';
const TIMESTAMP = '2025-01-01T00:00:00.000Z';
const OWNERS = roleHal({ id: 'role-1', name: 'Owners', type: 'owner' });
const DEPLOYERS = roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' });
const METADATA_XML = '<md:EntityDescriptor entityID="https://idp.example.com/entity"/>';

function samlConfigurationHal(fields: Partial<SamlConfigurationResource> = {}): SamlConfigurationResource {
  return {
    id: 'saml-1',
    _type: 'saml_configuration',
    entity_id: 'https://idp.example.com/entity',
    sign_in_url: 'https://idp.example.com/sso',
    sign_out_url: '',
    name_format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    certificate: 'MIIC',
    certificate_fingerprint: 'AB:CD:EF',
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
    ...fields,
  };
}

/** The organization's SAML configuration as the server holds it: POST and PATCH change what GET reads. */
function samlServer({
  configured = true,
  callerRoles = [OWNERS],
  remove,
}: {
  configured?: boolean;
  callerRoles?: ReturnType<typeof roleHal>[];
  remove?: (call: RecordedCall) => Response;
} = {}) {
  signIn();
  let current: SamlConfigurationResource | null = configured ? samlConfigurationHal() : null;
  return mockServer({
    ...consoleRoutes({ roles: callerRoles }),
    'GET /auth/organizations': () => json(200, collection('organizations', [organizationHal()])),
    'GET /auth/organizations/org-1/roles': () => json(200, collection('roles', [OWNERS, DEPLOYERS])),
    'GET /auth/organizations/org-1/whitelist_memberships': () =>
      json(200, collection('whitelist_memberships', [])),
    'GET /auth/saml_configurations': () =>
      json(200, collection('saml_configurations', current ? [current] : [])),
    'POST /auth/organizations/org-1/saml_configurations': () => {
      current = samlConfigurationHal();
      return json(201, current);
    },
    'PATCH /auth/saml_configurations/saml-1': (call) => {
      current = samlConfigurationHal({ ...current, ...(call.body as Partial<SamlConfigurationResource>) });
      return json(200, current);
    },
    'DELETE /auth/saml_configurations/saml-1':
      remove ??
      (() => {
        current = null;
        return new Response(null, { status: 204 });
      }),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  clearToasts();
});

describe('Single Sign-On settings (spec 1 §2, §5, §7)', () => {
  it('shows the URLs for the IdP from the auth host, and wants metadata before configuring', async () => {
    const server = samlServer({ configured: false });
    renderApp('/settings/team/sso');
    const urls = await screen.findByRole('region', { name: 'For your identity provider' });
    expect(
      within(urls).getByText('http://berth.test/auth/organizations/org-1/saml/consume'),
    ).toBeInTheDocument();
    expect(
      within(urls).getByText('http://berth.test/auth/organizations/org-1/saml/metadata'),
    ).toBeInTheDocument();
    expect(within(urls).getByText('http://berth.test/sso/org-1')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Configure SSO' }));
    expect(await screen.findByText('must provide either metadata URL or metadata XML')).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/organizations/org-1/saml_configurations')).toHaveLength(0);
  });

  it('sends the metadata XML trimmed and base64-encoded', async () => {
    const server = samlServer({ configured: false });
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const xml = await screen.findByRole('textbox', { name: 'Metadata XML' });
    await user.click(xml);
    await user.paste(`\n   ${METADATA_XML}  \n`);
    await user.click(screen.getByRole('button', { name: 'Configure SSO' }));
    expect(await screen.findByText('Saved changes successfully!')).toBeInTheDocument();
    const [call] = server.callsTo('POST', '/auth/organizations/org-1/saml_configurations');
    expect(call?.body).toEqual({ metadata: encodeSamlMetadata(METADATA_XML), metadata_url: '' });
    const sent = call?.body as { metadata: string } | undefined;
    expect(atob(sent?.metadata ?? '')).toBe(METADATA_XML);
    // Configured: what the IdP's metadata said.
    const configured = await screen.findByRole('region', { name: 'Configured identity provider' });
    expect(configured).toHaveTextContent('https://idp.example.com/entity');
    expect(configured).toHaveTextContent('AB:CD:EF');
  });

  it('sends a metadata URL trimmed', async () => {
    const server = samlServer({ configured: false });
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('textbox', { name: 'Metadata URL' }),
      '  https://idp.example.com/md  ',
    );
    await user.click(screen.getByRole('button', { name: 'Configure SSO' }));
    await waitFor(() =>
      expect(server.callsTo('POST', '/auth/organizations/org-1/saml_configurations')[0]?.body).toEqual({
        metadata: '',
        metadata_url: 'https://idp.example.com/md',
      }),
    );
  });

  it('updates the SSO login ID (disabled while empty or unchanged) and shows it in the login link', async () => {
    const server = samlServer();
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'SSO login ID' });
    const update = within(form).getByRole('button', { name: 'Update SSO login ID' });
    expect(update).toBeDisabled();
    const field = within(form).getByRole('textbox', { name: 'SSO login ID' });
    await user.type(field, 'bad handle!');
    await user.click(update);
    expect(await within(form).findByText(/SSO login ID must be 2 to 63 letters/)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'acme');
    await user.click(update);
    await waitFor(() =>
      expect(server.callsTo('PATCH', '/auth/saml_configurations/saml-1').at(-1)?.body).toEqual({
        handle: 'acme',
      }),
    );
    expect(await screen.findByText('http://berth.test/sso/acme')).toBeInTheDocument();
  });

  it('turns just-in-time provisioning on only with a role for new members', async () => {
    const server = samlServer();
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Just-in-time provisioning' });
    await user.click(
      within(form).getByRole('checkbox', { name: /Add people your identity provider signs in/ }),
    );
    await user.click(within(form).getByRole('button', { name: 'Save provisioning' }));
    expect(
      await within(form).findByText('Choose the role just-in-time provisioned members get'),
    ).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/auth/saml_configurations/saml-1')).toHaveLength(0);
    const role = within(form).getByRole('combobox', { name: 'Role for new members' });
    await waitFor(() => expect(within(role).getByRole('option', { name: 'Deployers' })).toBeInTheDocument());
    await user.selectOptions(role, 'role-2');
    await user.click(within(form).getByRole('button', { name: 'Save provisioning' }));
    await waitFor(() =>
      expect(server.callsTo('PATCH', '/auth/saml_configurations/saml-1')[0]?.body).toEqual({
        jit_enabled: true,
        default_role_id: 'role-2',
      }),
    );
  });

  it('shows the server’s refusal to remove the configuration while SSO is enforced', async () => {
    samlServer({
      remove: () =>
        json(422, errorBody(422, 'unprocessable_entity', 'SSO must not be enforced to be removed')),
    });
    renderApp('/settings/team/sso');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Remove SSO configuration' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm remove SSO configuration' }));
    expect(await screen.findAllByText('SSO must not be enforced to be removed')).not.toHaveLength(0);
    expect(screen.getByRole('region', { name: 'Configured identity provider' })).toBeInTheDocument();
  });

  it('is for the Account Owner only: anyone else sees why and cannot configure', async () => {
    const server = samlServer({ configured: false, callerRoles: [DEPLOYERS] });
    renderApp('/settings/team/sso');
    expect(await screen.findByRole('textbox', { name: 'Metadata XML' })).toBeDisabled();
    expect(screen.getByRole('textbox', { name: 'Metadata URL' })).toBeDisabled();
    expect(server.callsTo('GET', '/auth/saml_configurations')).toHaveLength(0);
  });
});
