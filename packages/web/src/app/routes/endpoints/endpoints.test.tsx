import { scopeDenialMessage } from '@berth/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, HOST, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';
import { type VhostFixture, vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';
import { endpointKeys } from '../../../features/endpoints/api/endpoint-keys.ts';

const api = (path: string) => `${HOST}/api${path}`;
const TIMESTAMP = '2026-01-01T00:00:00.000Z';

function appHal() {
  return appResourceFixture({
    id: '1',
    handle: 'shop',
    created_at: TIMESTAMP,
    _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
  });
}

function serviceHal() {
  return serviceResourceFixture({ id: '5', command: 'npm start', created_at: TIMESTAMP });
}

function vhostHal(id: string, fields: VhostFixture = {}, environmentId = '10') {
  return vhostResourceFixture({ id, environmentId, created_at: TIMESTAMP, ...fields });
}

function operationHal(id: string, type: string) {
  return operationResourceFixture({
    id,
    type,
    status: 'queued',
    resource_type: 'vhost',
    resource_id: '7',
    created_at: TIMESTAMP,
    _links: { account: { href: api('/accounts/10') } },
  });
}

/** The console of an owner (or of a reader with `scopes` on environment 10) with app 1 and service 5. */
function routes(options: { scopes?: string[] } = {}) {
  const reader = options.scopes !== undefined;
  return {
    ...consoleRoutes({
      roles: reader ? [roleHal({ id: 'role-2', name: 'Readers', type: 'platform_user' })] : undefined,
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [
        environmentHal({
          id: '10',
          permissions: (options.scopes ?? []).map((scope, index) => ({
            id: `p${index}`,
            scope,
            roleId: 'role-2',
          })),
        }),
      ],
    }),
    'GET /api/apps': () => json(200, collection('apps', [appHal()])),
    'GET /api/services': () => json(200, collection('services', [serviceHal()])),
    'GET /api/apps/1': () => json(200, appHal()),
    'GET /api/apps/1/deployments': () => json(200, collection('deployments', [])),
    'GET /api/apps/1/services': () => json(200, collection('services', [serviceHal()])),
    'GET /api/apps/1/operations': () => json(200, collection('operations', [])),
    'GET /api/vhosts/7/operations': () => json(200, collection('operations', [])),
    'GET /api/accounts/10/certificates': () => json(200, collection('certificates', [])),
  };
}

/** Signs in to a console whose organization has these endpoints. */
function serveVhosts(vhosts: ReturnType<typeof vhostHal>[]) {
  signIn();
  return mockServer({ ...routes(), 'GET /api/vhosts': () => json(200, collection('vhosts', vhosts)) });
}

describe('endpoints list (spec 2 §2 /endpoints)', () => {
  it('is the sidebar Endpoints page and lists only the organization’s endpoints', async () => {
    serveVhosts([vhostHal('7'), vhostHal('8', { shared: true }), vhostHal('9', {}, '99')]);
    renderApp('/environments');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Endpoints' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Endpoints' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Endpoints' });
    expect(
      await within(table).findByRole('link', { name: 'https://app-7.on-berth.localhost' }),
    ).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    const row = within(table).getByRole('link', { name: 'https://app-8.on-berth.localhost' }).closest('tr');
    expect(
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'https://app-8.on-berth.localhost',
      'app-8.on-berth.localhost',
      'shop',
      'web',
      'Provisioned',
      'External',
      'ALB',
      'Yes',
      'N/A',
    ]);
  });
});

describe('endpoint links (lib/paths.ts)', () => {
  it('links an endpoint, its Setup tab and a database resource through the console paths', async () => {
    serveVhosts([
      vhostHal('7', {
        default: false,
        acme: true,
        acme_status: 'pending',
        user_domain: 'www.example.com',
      }),
      vhostHal('8', {
        type: 'tcp',
        resource_type: 'database',
        resource_id: '30',
        resource_handle: 'orders-db',
        _links: {
          self: { href: api('/vhosts/8') },
          service: { href: api('/services/6') },
          account: { href: api('/accounts/10') },
        },
      }),
    ]);
    renderApp('/endpoints');
    const table = await screen.findByRole('table', { name: 'Endpoints' });
    expect(await within(table).findByRole('link', { name: 'https://www.example.com' })).toHaveAttribute(
      'href',
      '/endpoints/7',
    );
    expect(within(table).getByRole('link', { name: /^Setup / })).toHaveAttribute(
      'href',
      '/endpoints/7/setup',
    );
    expect(within(table).getByRole('link', { name: 'orders-db' })).toHaveAttribute('href', '/databases/30');
  });
});

describe('global endpoints list freshness (contract §1.13)', () => {
  it('reads /vhosts again on the next visit once the endpoint page saw a new status', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'GET /api/vhosts': [
        () => json(200, collection('vhosts', [vhostHal('7', { status: 'provisioning' })])),
        () => json(200, collection('vhosts', [vhostHal('7')])),
      ],
      'GET /api/vhosts/7': [
        () => json(200, vhostHal('7', { status: 'provisioning' })),
        () => json(200, vhostHal('7')),
      ],
    });
    const { router, queryClient } = renderApp('/endpoints/7');
    const details = await screen.findByRole('region', { name: 'Endpoint details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(value('Status')).toBe('Provisioning');
    await waitFor(() => expect(server.callsTo('GET', '/api/vhosts')).toHaveLength(1));
    // The next 5 s poll of the endpoint.
    await act(() => queryClient.refetchQueries({ queryKey: endpointKeys.detail('7') }));
    await waitFor(() => expect(value('Status')).toBe('Provisioned'));

    await act(() => router.navigate('/endpoints'));
    const table = await screen.findByRole('table', { name: 'Endpoints' });
    const row = (
      await within(table).findByRole('link', { name: 'https://app-7.on-berth.localhost' })
    ).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getAllByRole('cell')[4]).toHaveTextContent('Provisioned'));
    expect(server.callsTo('GET', '/api/vhosts')).toHaveLength(2);
  });
});

describe('app Endpoints tab and the create form (spec 2 §2, §4 provisioning flow)', () => {
  it('creates the endpoint, provisions it and opens its page showing Pending', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'GET /api/apps/1/vhosts': () => json(200, collection('vhosts', [])),
      'POST /api/services/5/vhosts': () =>
        json(201, vhostHal('7', { status: 'pending', external_host: null })),
      'POST /api/vhosts/7/operations': () => json(201, operationHal('40', 'provision')),
      'GET /api/vhosts/7': () => json(200, vhostHal('7', { status: 'provisioning', external_host: null })),
    });
    renderApp('/apps/1/endpoints');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Endpoints of app 1' });
    expect(await within(table).findByText('No resources found')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'New Endpoint' }));

    expect(await screen.findByRole('heading', { name: 'New Endpoint' })).toBeInTheDocument();
    // The only service is chosen already.
    expect(screen.getByRole('combobox', { name: 'Service' })).toHaveValue('5');
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '203.0.113.7');
    await user.click(screen.getByRole('button', { name: 'Save Endpoint' }));

    expect(await screen.findByRole('region', { name: 'Endpoint details' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/5/vhosts')[0]?.body).toEqual({
      type: 'http',
      platform: 'alb',
      acme: false,
      default: true,
      internal: false,
      ip_whitelist: ['203.0.113.7'],
      load_balancing_algorithm_type: 'round_robin',
      shared: false,
    });
    expect(server.callsTo('POST', '/api/vhosts/7/operations')[0]?.body).toEqual({ type: 'provision' });
    const details = screen.getByRole('region', { name: 'Endpoint details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(value('URL')).toBe('Pending');
    expect(value('Status')).toBe('Provisioning');
    expect(value('Service Process')).toBe('web');
    expect(value('Resource')).toBe('shop');
    expect(value('IP Allowlist')).toBe('Disabled (all traffic allowed)');
  });

  it('shows the server message when the create is refused', async () => {
    signIn();
    mockServer({
      ...routes(),
      'POST /api/services/5/vhosts': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'A domain is required for managed HTTPS')),
    });
    renderApp('/apps/1/endpoints/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Endpoint' }));
    expect(await screen.findByText('A domain is required for managed HTTPS')).toBeInTheDocument();
  });

  it('reuses the uploaded certificate when saving again after the create failed', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'POST /api/accounts/10/certificates': () =>
        json(201, {
          _type: 'certificate',
          id: '12',
          common_name: 'www.example.com',
          _links: { self: { href: api('/certificates/12') }, account: { href: api('/accounts/10') } },
        }),
      'POST /api/services/5/vhosts': [
        () => json(422, errorBody(422, 'unprocessable_entity', 'The service has no release yet')),
        () => json(201, vhostHal('7', { status: 'pending', default: false })),
      ],
      'POST /api/vhosts/7/operations': () => json(201, operationHal('40', 'provision')),
      'GET /api/vhosts/7': () => json(200, vhostHal('7', { status: 'provisioning', default: false })),
    });
    renderApp('/apps/1/endpoints/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('radio', { name: /Custom certificate/ }));
    await user.type(screen.getByRole('textbox', { name: 'New Certificate' }), 'CERT');
    await user.type(screen.getByRole('textbox', { name: 'Private Key' }), 'KEY');
    await user.click(screen.getByRole('button', { name: 'Save Endpoint' }));
    expect(await screen.findByText('The service has no release yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Endpoint' }));

    expect(await screen.findByRole('region', { name: 'Endpoint details' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/accounts/10/certificates')).toHaveLength(1);
    const creates = server.callsTo('POST', '/api/services/5/vhosts');
    expect(creates).toHaveLength(2);
    for (const call of creates) {
      expect(call.body).toMatchObject({ certificate: api('/certificates/12') });
    }
  });

  it('opens the created endpoint with the provisioning error and provisions it from there', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'POST /api/services/5/vhosts': () => json(201, vhostHal('7', { status: 'pending' })),
      'POST /api/vhosts/7/operations': [
        () => json(503, errorBody(503, 'service_unavailable', 'The operation queue is unavailable')),
        () => json(201, operationHal('44', 'provision')),
      ],
      'GET /api/vhosts/7': () => json(200, vhostHal('7', { status: 'pending' })),
      'GET /api/operations/44': () => json(200, { ...operationHal('44', 'provision'), status: 'running' }),
    });
    const { router } = renderApp('/apps/1/endpoints/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Endpoint' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/endpoints/7'));
    expect(
      await screen.findByText(
        'The endpoint was created, but provisioning could not start: The operation queue is unavailable',
      ),
    ).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/5/vhosts')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Provision Endpoint' }));
    expect(await screen.findByText('Operation 44: provision RUNNING')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/5/vhosts')).toHaveLength(1);
    expect(server.callsTo('POST', '/api/vhosts/7/operations').map((call) => call.body)).toEqual([
      { type: 'provision' },
      { type: 'provision' },
    ]);
  });

  it('keeps New Endpoint visible but disabled without deploy scope', async () => {
    signIn();
    mockServer({
      ...routes({ scopes: ['read'] }),
      'GET /api/apps/1/vhosts': () => json(200, collection('vhosts', [vhostHal('7')])),
    });
    renderApp('/apps/1/endpoints');
    const button = await screen.findByRole('button', { name: 'New Endpoint' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('deploy', '10'), 'production'),
    );
  });
});

describe('endpoint page (spec 2 §2)', () => {
  it('edits the settings, then provisions; a shared endpoint stays shared', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'GET /api/vhosts/7': () => json(200, vhostHal('7', { shared: true })),
      'PATCH /api/vhosts/7': () => json(200, vhostHal('7', { shared: true, ip_whitelist: ['10.0.0.0/8'] })),
      'POST /api/vhosts/7/operations': () => json(201, operationHal('41', 'provision')),
      'GET /api/operations/41': () => json(200, { ...operationHal('41', 'provision'), status: 'running' }),
    });
    renderApp('/endpoints/7/settings');
    const user = userEvent.setup();
    expect(
      await screen.findByText('Shared endpoints cannot be converted to dedicated endpoints.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Shared endpoint' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Operation 41: provision RUNNING')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/api/vhosts/7')[0]?.body).toEqual({
      ip_whitelist: ['10.0.0.0/8'],
      container_port: null,
      load_balancing_algorithm_type: 'round_robin',
      shared: true,
    });
    expect(server.callsTo('POST', '/api/vhosts/7/operations')[0]?.body).toEqual({ type: 'provision' });
  });

  it('deprovisions with the hostname typed, then follows the operation', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'GET /api/vhosts/7': () => json(200, vhostHal('7')),
      'POST /api/vhosts/7/operations': () => json(201, operationHal('42', 'deprovision')),
      'GET /api/operations/42': () => json(200, { ...operationHal('42', 'deprovision'), status: 'running' }),
      'GET /api/operations/42/logs': () => json(200, ''),
    });
    const { router } = renderApp('/endpoints/7/settings');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Deprovision Endpoint' });
    const input = screen.getByRole('textbox', { name: 'Type the endpoint hostname to confirm' });
    await user.type(input, 'app-7');
    expect(button).toBeDisabled();
    await user.type(input, '.on-berth.localhost');
    await user.click(button);
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/42'));
    expect(server.callsTo('POST', '/api/vhosts/7/operations')[0]?.body).toEqual({ type: 'deprovision' });
  });

  it('re-runs a failed provision from the Activity tab on /vhosts/:id/operations (spec 3 §2)', async () => {
    signIn();
    const failed = {
      ...operationHal('39', 'provision'),
      status: 'failed',
      // The Activity tab shows the last 2 weeks only.
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
      resource_type: 'vhost',
      resource_id: '7',
      resource_handle: 'app-7.on-berth.localhost',
    };
    const server = mockServer({
      ...routes(),
      'GET /api/vhosts/7': () => json(200, vhostHal('7', { status: 'provision_failed' })),
      'GET /api/vhosts/7/operations': () => json(200, collection('operations', [failed])),
      'POST /api/vhosts/7/operations': () => json(201, operationHal('45', 'provision')),
      'GET /api/operations/45': () => json(200, { ...operationHal('45', 'provision'), status: 'running' }),
      'GET /api/operations/45/logs': () => json(200, ''),
    });
    const { router } = renderApp('/endpoints/7');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Re-run provision of app-7.on-berth.localhost' }),
    );
    await user.click(
      screen.getByRole('button', { name: 'Confirm re-run provision of app-7.on-berth.localhost' }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/45'));
    expect(server.callsTo('POST', '/api/vhosts/7/operations').map((call) => call.body)).toEqual([
      { type: 'provision' },
    ]);
  });

  it('offers DNS Configuration and Finish setup for a managed endpoint waiting on DNS, then renews', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'POST /api/vhosts/7/operations': () => json(201, operationHal('43', 'renew')),
      'GET /api/operations/43': () => json(200, { ...operationHal('43', 'renew'), status: 'running' }),
      'GET /api/vhosts/7': () =>
        json(
          200,
          vhostHal('7', {
            default: false,
            acme: true,
            acme_status: 'pending',
            user_domain: 'www.example.com',
            virtual_domain: 'www.example.com',
            acme_dns_challenge_host: 'acme-7.on-berth.localhost',
          }),
        ),
    });
    const { router } = renderApp('/endpoints/7');
    expect(await screen.findByText('Finish setup', { selector: '.banner-title' })).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Endpoint tabs' });
    expect(within(tabs).getByRole('link', { name: 'DNS Configuration' })).toHaveAttribute(
      'href',
      '/endpoints/7/setup',
    );
    await act(() => router.navigate('/endpoints/7/setup'));
    const dns = await screen.findByRole('region', { name: 'DNS Configuration' });
    expect(within(dns).getByText('_acme-challenge.www.example.com')).toBeInTheDocument();
    expect(within(dns).getByText('acme-7.on-berth.localhost')).toBeInTheDocument();
    await userEvent
      .setup()
      .click(within(dns).getByRole('button', { name: 'Verify DNS and issue the certificate' }));
    expect(await screen.findByText('Operation 43: renew RUNNING')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/vhosts/7/operations')[0]?.body).toEqual({ type: 'renew' });
  });
});

describe('environment Endpoints and Certificates tabs', () => {
  it('lists the environment’s endpoints and certificates', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/accounts/10': () => json(200, { ...environmentHal({ id: '10' }), domain_count: 1 }),
      'GET /api/accounts/10/vhosts': () =>
        json(200, collection('vhosts', [vhostHal('7', { internal: true })])),
      'GET /api/accounts/10/certificates': () =>
        json(
          200,
          collection('certificates', [
            {
              _type: 'certificate',
              id: '3',
              common_name: 'www.example.com',
              not_before: '2026-01-01T00:00:00.000Z',
              not_after: '2027-01-01T00:00:00.000Z',
              issuer_organization: 'Example CA',
              trusted: true,
              self_signed: false,
              sha256_fingerprint: 'abcdef0123456789',
              _links: { self: { href: api('/certificates/3') }, account: { href: api('/accounts/10') } },
            },
          ]),
        ),
    });
    const { router } = renderApp('/environments/10/endpoints');
    const endpoints = await screen.findByRole('table', { name: 'Endpoints of environment 10' });
    expect(await within(endpoints).findByText('Internal')).toBeInTheDocument();
    // spec 2 §2: with 5 or fewer, the detail lists the endpoints beside their count.
    const details = screen.getByRole('region', { name: 'Environment details' });
    expect(await within(details).findByRole('link', { name: 'app-7.on-berth.localhost' })).toHaveAttribute(
      'href',
      '/endpoints/7',
    );
    expect(details).toHaveTextContent('Endpoints1 (app-7.on-berth.localhost)');
    await act(() => router.navigate('/environments/10/certificates'));
    const certificates = await screen.findByRole('table', { name: 'Certificates of environment 10' });
    const link = await within(certificates).findByRole('link', { name: 'www.example.com' });
    expect(link).toHaveAttribute('href', '/certificates/3');
    const row = link.closest('tr');
    expect(
      within(row as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['www.example.com', '3', '2026-01-01 - 2027-01-01', 'Example CA', 'Trusted', 'abcdef0']);
    expect(screen.getByRole('link', { name: 'New Certificate' })).toHaveAttribute(
      'href',
      '/environments/10/certificates/create',
    );
  });

  it('uploads a certificate and shows the server’s 422 message', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'GET /api/accounts/10': () => json(200, environmentHal({ id: '10' })),
      'POST /api/accounts/10/certificates': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'The private key does not match the certificate')),
    });
    renderApp('/environments/10/certificates/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Certificate' }));
    expect(await screen.findByText('A certificate is required for custom HTTPS')).toBeInTheDocument();
    expect(screen.getByText('A private key is required for custom HTTPS')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Certificate' }), 'CERT');
    await user.type(screen.getByRole('textbox', { name: 'Private Key' }), 'KEY');
    await user.click(screen.getByRole('button', { name: 'Save Certificate' }));
    expect(await screen.findByText('The private key does not match the certificate')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/accounts/10/certificates')[0]?.body).toEqual({
      certificate_body: 'CERT',
      private_key: 'KEY',
    });
  });
});

describe('service page with endpoints (spec 2 §4 deployment strategy, §5 service settings)', () => {
  it('reads Zero-Downtime and hides the zero-downtime options', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/services/5': () => json(200, serviceHal()),
      'GET /api/services/5/vhosts': () => json(200, collection('vhosts', [vhostHal('7')])),
      'GET /api/services/5/operations': () => json(200, collection('operations', [])),
      'GET /api/costs/org-1/services': () => json(200, collection('costs', [])),
    });
    renderApp('/apps/1/services/5/settings');
    const details = await screen.findByRole('region', { name: 'Service details' });
    await waitFor(() => expect(details).toHaveTextContent('Deployment StrategyZero-Downtime'));
    expect(
      await screen.findByText(
        'Cannot configure zero-downtime or non-endpoint health checks for services with endpoints.',
      ),
    ).toBeInTheDocument();
  });
});
