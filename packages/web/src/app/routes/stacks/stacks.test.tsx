import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { activePlanHal, planHal } from '../../../../test/billing-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import {
  collection,
  costHal,
  environmentHal,
  errorBody,
  roleHal,
  stackHal,
} from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';

const stacks = [
  { ...stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }), runtime: 'sim' },
  {
    ...stackHal({ id: '2', name: 'engines-prod', organizationId: 'org-1' }),
    region: 'eu-west-1',
    memory_limits: true,
    outbound_ip_addresses: ['203.0.113.7', '203.0.113.8'],
  },
];

const PLANS = (
  ['none', 'starter', 'development', 'growth', 'scale', 'production', 'enterprise'] as const
).map(planHal);

function routes(
  options: {
    roleType?: string;
    environments?: unknown[];
    plan?: Parameters<typeof activePlanHal>[0] | null;
  } = {},
) {
  const active = options.plan === null ? null : activePlanHal(options.plan ?? 'growth');
  return {
    'GET /api/plans': () => json(200, collection('plans', PLANS)),
    'GET /api/active_plans': () => json(200, collection('active_plans', active ? [active] : [])),
    ...consoleRoutes({
      stacks,
      roles: [roleHal({ type: options.roleType ?? 'owner' })],
      environments: options.environments ?? [
        environmentHal({ id: '10', handle: 'production', stackId: '2' }),
        environmentHal({ id: '11', handle: 'staging', stackId: '1' }),
        environmentHal({ id: '12', handle: 'review', stackId: '1' }),
      ],
    }),
    'GET /api/costs/org-1/stacks': () =>
      json(200, collection('costs', [costHal('1', 'Stack', 0), costHal('2', 'Stack', 499)])),
    'GET /api/costs/org-1/accounts': () => json(200, collection('costs', [])),
    'GET /api/stacks/1': () => json(200, stacks[0]),
    'GET /api/stacks/2': () => json(200, stacks[1]),
  };
}

describe('stacks list (spec 2 §2)', () => {
  it('lists tenancy, region, environments and cost with a total, and a New Dedicated Stack link', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks');
    const table = await screen.findByRole('table', { name: 'Stacks' });
    expect(await within(table).findByText('$499.00')).toBeInTheDocument();
    const [header, first, second] = within(table).getAllByRole('row');
    expect(
      within(header as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'ID', 'Tenancy', 'Region', 'Environments', 'Est. Monthly Cost']);
    expect(first).toHaveTextContent('shared-us-west-11Shared (Simulated)us-west-12$0.00');
    expect(second).toHaveTextContent('engines-prod2Dedicatedeu-west-11$499.00');
    expect(screen.getByRole('status', { name: 'Total Est. Monthly Cost' })).toHaveTextContent('$499.00');
    expect(screen.getByRole('link', { name: 'New Dedicated Stack' })).toHaveAttribute(
      'href',
      '/create/stack',
    );
    expect(within(table).getByRole('link', { name: 'engines-prod' })).toHaveAttribute('href', '/stacks/2');
  });

  it('offers the request to the Account Owner alone: others see why, on the list and on the form', async () => {
    signIn();
    mockServer(routes({ roleType: 'platform_owner' }));
    const { router } = renderApp('/stacks');
    const button = await screen.findByRole('button', { name: 'New Dedicated Stack' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    const described = deniedDescription(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect(button).toHaveAccessibleDescription(described);
    await router.navigate('/create/stack');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    const submit = screen.getByRole('button', { name: 'Request Dedicated Stack' });
    expect(submit).toHaveAccessibleDescription(described);
    await user.click(submit);
    expect(screen.queryByText('Dedicated Stack request')).not.toBeInTheDocument();
  });

  it('lets the Account Owner send the same request', async () => {
    signIn();
    mockServer(routes());
    renderApp('/create/stack');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    await user.click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    expect(await screen.findByText('Dedicated Stack request')).toBeInTheDocument();
  });
  it('says the plan in force includes dedicated stacks', async () => {
    signIn();
    mockServer(routes({ plan: 'production' }));
    renderApp('/create/stack');
    expect(
      await screen.findByText(
        "Dedicated stacks are offered on the Growth, Scale, Production and Enterprise plans; your organization's plan, Production, is one.",
      ),
    ).toBeInTheDocument();
  });

  it('holds the request on a plan without dedicated stacks, and leads to the plans', async () => {
    signIn();
    mockServer(routes({ plan: 'starter' }));
    renderApp('/create/stack');
    const message = 'Dedicated stacks are offered on the Growth, Scale, Production and Enterprise plans.';
    const banner = await screen.findByText(/Your organization is on the Starter plan/);
    expect(banner).toHaveTextContent(
      `${message} Your organization is on the Starter plan: change the plan to request one.`,
    );
    expect(within(banner).getByRole('link', { name: 'change the plan' })).toHaveAttribute('href', '/plans');
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    const submit = screen.getByRole('button', { name: 'Request Dedicated Stack' });
    expect(submit).toHaveAccessibleDescription(deniedDescription(message));
    await user.click(submit);
    expect(screen.queryByText('Dedicated Stack request')).not.toBeInTheDocument();
  });

  it('lets an organization made before plans (held to the enterprise figures) send it', async () => {
    signIn();
    mockServer(routes({ plan: null }));
    renderApp('/create/stack');
    expect(
      await screen.findByText(
        'Dedicated stacks are offered on the Growth, Scale, Production and Enterprise plans.',
      ),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    await user.click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    expect(await screen.findByText('Dedicated Stack request')).toBeInTheDocument();
  });
});

describe('stack detail (spec 2 §2)', () => {
  it('shows the fields and opens on the environments tab', async () => {
    signIn();
    mockServer(routes());
    const { router } = renderApp('/stacks/2');
    const details = await screen.findByRole('region', { name: 'Stack details' });
    expect(router.state.location.pathname).toBe('/stacks/2/environments');
    expect(details).toHaveTextContent('Memory ManagementEnabled');
    expect(details).toHaveTextContent('TenancyDedicated');
    expect(details).toHaveTextContent('Outbound IP Addresses203.0.113.7, 203.0.113.8');
    expect(details).toHaveTextContent('Regioneu-west-1');
    expect(await screen.findByText('$499.00')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Environments' });
    expect(within(table).getByText('production')).toBeInTheDocument();
    expect(within(table).queryByText('staging')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Managed HIDS' })).not.toBeInTheDocument();
  });

  it('shows the HIDS tab only when the stack exposes reports', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2': () => json(200, { ...stacks[1], expose_intrusion_detection_reports: true }),
      'GET /api/stacks/2/intrusion_detection_reports?page=1&per_page=10': () =>
        json(200, { ...collection('intrusion_detection_reports', []), per_page: 10 }),
    });
    renderApp('/stacks/2/hids');
    expect(await screen.findByRole('link', { name: 'Managed HIDS' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'No resources found' })).toBeInTheDocument();
  });

  it('pages the HIDS reports by the address (?page=) and names each download by its report', async () => {
    signIn();
    const hidsReport = (id: string, day: number) => ({
      id,
      _type: 'intrusion_detection_report',
      starts_at: `2026-10-${String(day).padStart(2, '0')}T00:00:00.000Z`,
      ends_at: `2026-10-${String(day + 1).padStart(2, '0')}T00:00:00.000Z`,
      created_at: `2026-10-${String(day + 1).padStart(2, '0')}T01:00:00.000Z`,
      _links: {
        download_csv: { href: `http://berth.test/api/intrusion_detection_reports/${id}/download_csv` },
        download_pdf: { href: `http://berth.test/api/intrusion_detection_reports/${id}/download_pdf` },
      },
    });
    const page = (number: number, reports: unknown[]) => () =>
      json(200, {
        ...collection('intrusion_detection_reports', reports),
        current_page: number,
        per_page: 10,
        total_count: 11,
      });
    mockServer({
      ...routes(),
      'GET /api/stacks/2': () => json(200, { ...stacks[1], expose_intrusion_detection_reports: true }),
      'GET /api/stacks/2/intrusion_detection_reports?page=1&per_page=10': page(
        1,
        Array.from({ length: 10 }, (_, index) => hidsReport(String(20 - index), 20 - index)),
      ),
      'GET /api/stacks/2/intrusion_detection_reports?page=2&per_page=10': page(2, [hidsReport('5', 5)]),
    });
    const { router } = renderApp('/stacks/2/hids');
    const table = await screen.findByRole('table', { name: 'Managed HIDS reports' });
    const period = (day: number) =>
      `report of ${formatDateTime(`2026-10-${String(day).padStart(2, '0')}T00:00:00.000Z`)} to ${formatDateTime(`2026-10-${String(day + 1).padStart(2, '0')}T00:00:00.000Z`)}`;
    expect(within(table).getByRole('button', { name: `CSV ${period(20)}` })).toHaveTextContent(/^CSV$/);
    expect(within(table).getByRole('button', { name: `PDF ${period(11)}` })).toHaveTextContent(/^PDF$/);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    expect(await within(table).findByRole('button', { name: `CSV ${period(5)}` })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/stacks/2/hids');
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();

    // Back returns to the first page, as the address says.
    await router.navigate(-1);
    expect(await within(table).findByRole('button', { name: `PDF ${period(20)}` })).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('opens the HIDS reports at the page the address names', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2': () => json(200, { ...stacks[1], expose_intrusion_detection_reports: true }),
      'GET /api/stacks/2/intrusion_detection_reports?page=3&per_page=10': () =>
        json(200, {
          ...collection('intrusion_detection_reports', []),
          current_page: 3,
          per_page: 10,
          total_count: 25,
        }),
    });
    renderApp('/stacks/2/hids?page=3');
    expect(await screen.findByText('Page 3 of 3')).toBeInTheDocument();
  });

  it("says the spec's text when the HIDS reports cannot be read", async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2': () => json(200, { ...stacks[1], expose_intrusion_detection_reports: true }),
      'GET /api/stacks/2/intrusion_detection_reports?page=1&per_page=10': () =>
        json(500, errorBody(500, 'internal_error', 'Something went wrong on our side')),
    });
    renderApp('/stacks/2/hids');
    expect(await screen.findByText('Unable to fetch managed HIDS evidence.')).toBeInTheDocument();
  });

  it('lists the VPN tunnels and VPC peers support set up, and offers a prefilled ticket for more', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2/vpn_tunnels?per_page=5000': () =>
        json(
          200,
          collection('vpn_tunnels', [
            {
              id: '7',
              _type: 'vpn_tunnel',
              handle: 'office',
              phase_1_alg: 'aes256',
              phase_1_dh_group: 'modp2048',
              phase_1_lifetime: '28800',
              phase_2_alg: 'aes256',
              phase_2_dh_group: 'modp2048',
              phase_2_lifetime: '3600',
              perfect_forward_secrecy: 'yes',
              auto: 'start',
              our_gateway: '203.0.113.10',
              peer_gateway: '198.51.100.20',
              our_networks: ['10.0.0.0/16'],
              peer_networks: ['192.168.0.0/24', '192.168.1.0/24'],
              state: 'up',
              created_at: '2026-11-01T00:00:00.000Z',
              updated_at: '2026-11-01T00:00:00.000Z',
              _links: { stack: { href: 'http://berth.test/api/stacks/2' } },
            },
          ]),
        ),
      'GET /api/stacks/2/vpc_peers?per_page=5000': () =>
        json(
          200,
          collection('vpc_peers', [
            {
              id: '3',
              _type: 'vpc_peer',
              connection_id: 'pcx-0abc',
              connection_status: 'pending-acceptance',
              description: 'Analytics',
              peer_account_id: '123456789012',
              peer_vpc_id: 'vpc-0def',
              created_at: '2026-11-01T00:00:00.000Z',
              updated_at: '2026-11-01T00:00:00.000Z',
              _links: { stack: { href: 'http://berth.test/api/stacks/2' } },
            },
          ]),
        ),
    });
    renderApp('/stacks/2/vpn-tunnels');
    const tunnels = await screen.findByRole('table', { name: 'VPN Tunnels' });
    expect(within(tunnels).getAllByRole('row')[1]).toHaveTextContent(
      'officeup203.0.113.1010.0.0.0/16198.51.100.20192.168.0.0/24, 192.168.1.0/24',
    );
    const request = screen.getByRole('link', { name: 'Request a VPN Tunnel' });
    const href = new URL(request.getAttribute('href') ?? '', 'http://berth.test');
    expect(href.pathname).toBe('/support');
    expect(href.searchParams.get('subject')).toBe('VPN tunnel request for stack engines-prod');
    expect(href.searchParams.get('description')).toMatch(
      /^Please set up a VPN tunnel for stack engines-prod \(id 2, eu-west-1\)\./,
    );

    await userEvent.setup().click(screen.getByRole('link', { name: 'VPC Peering' }));
    const peers = await screen.findByRole('table', { name: 'VPC Peers' });
    // spec 2 §6: a connection that is not active reads as an error.
    expect(within(peers).getByText('pending-acceptance')).toHaveClass('badge-error');
    expect(screen.getByRole('link', { name: 'Request VPC Peering' }).getAttribute('href')).toMatch(
      /^\/support\?subject=VPC\+peering\+request\+for\+stack\+engines-prod/,
    );
  });

  it('lists every VPN tunnel and VPC peer, following the next page link the server gives (contract §1.4)', async () => {
    signIn();
    const tunnel = (id: string, handle: string) => ({
      id,
      _type: 'vpn_tunnel',
      handle,
      phase_1_alg: 'aes256',
      phase_1_dh_group: 'modp2048',
      phase_1_lifetime: '28800',
      phase_2_alg: 'aes256',
      phase_2_dh_group: 'modp2048',
      phase_2_lifetime: '3600',
      perfect_forward_secrecy: 'yes',
      auto: 'start',
      our_gateway: '203.0.113.10',
      peer_gateway: '198.51.100.20',
      our_networks: ['10.0.0.0/16'],
      peer_networks: ['192.168.0.0/24'],
      state: 'up',
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
      _links: { stack: { href: 'http://berth.test/api/stacks/2' } },
    });
    const peer = (id: string, connection: string) => ({
      id,
      _type: 'vpc_peer',
      connection_id: connection,
      connection_status: 'active',
      description: 'Analytics',
      peer_account_id: '123456789012',
      peer_vpc_id: 'vpc-0def',
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
      _links: { stack: { href: 'http://berth.test/api/stacks/2' } },
    });
    // The server's answer to per_page=5000 when more remain: page 1 and where page 2 is.
    const firstPage = (key: string, item: unknown) =>
      json(200, {
        ...collection(key, [item]),
        _links: {
          self: { href: `http://berth.test/api/stacks/2/${key}` },
          next: { href: `http://berth.test/api/stacks/2/${key}?page=2&per_page=5000` },
        },
        per_page: 5000,
        total_count: 5001,
      });
    const lastPage = (key: string, item: unknown) =>
      json(200, { ...collection(key, [item]), current_page: 2, per_page: 5000, total_count: 5001 });
    mockServer({
      ...routes(),
      'GET /api/stacks/2/vpn_tunnels?per_page=5000': () => firstPage('vpn_tunnels', tunnel('7', 'office')),
      'GET /api/stacks/2/vpn_tunnels?page=2&per_page=5000': () =>
        lastPage('vpn_tunnels', tunnel('8', 'warehouse')),
      'GET /api/stacks/2/vpc_peers?per_page=5000': () => firstPage('vpc_peers', peer('3', 'pcx-0abc')),
      'GET /api/stacks/2/vpc_peers?page=2&per_page=5000': () => lastPage('vpc_peers', peer('4', 'pcx-0def')),
    });
    renderApp('/stacks/2/vpn-tunnels');
    const tunnels = await screen.findByRole('table', { name: 'VPN Tunnels' });
    expect(within(tunnels).getByText('office')).toBeInTheDocument();
    expect(within(tunnels).getByText('warehouse')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('link', { name: 'VPC Peering' }));
    const peers = await screen.findByRole('table', { name: 'VPC Peers' });
    expect(within(peers).getByText('pcx-0abc')).toBeInTheDocument();
    expect(within(peers).getByText('pcx-0def')).toBeInTheDocument();
  });

  it('says so on the HIDS tab of a stack that does not expose its reports', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/2/hids');
    expect(
      await screen.findByText('We cannot expose intrusion detection reports for this stack.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Managed HIDS' })).not.toBeInTheDocument();
  });

  it('refuses deprovision to everyone but the Account Owner, with the tooltip', async () => {
    signIn();
    mockServer(routes({ roleType: 'platform_owner' }));
    renderApp('/stacks/2/settings');
    const button = await screen.findByRole('button', { name: 'Request Deprovision' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      deniedDescription('You must be an Account Owner to deprovision stacks'),
    );
    await userEvent.setup().click(button);
    expect(screen.queryByRole('link', { name: 'Confirm' })).not.toBeInTheDocument();
  });

  it('lets the owner request a deprovision once environments are gone and the name is typed', async () => {
    signIn();
    mockServer(routes({ environments: [environmentHal({ id: '11', handle: 'staging', stackId: '1' })] }));
    renderApp('/stacks/2/settings');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Request Deprovision' });
    expect(button).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), 'engines-prod');
    expect(button).toBeEnabled();
    await user.click(button);
    const confirm = screen.getByRole('link', { name: 'Confirm' });
    // The request opens the support form with it filled in.
    expect(confirm.getAttribute('href')).toMatch(/^\/support\?subject=Deprovision\+stack\+engines-prod/);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('warns while environments remain', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/2/settings');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'All environments on this stack must be deprovisioned before the stack can be (1 environment remains).',
    );
  });

  it('says a shared stack cannot be deprovisioned', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/1/settings');
    expect(await screen.findByText(/Shared stacks cannot be deprovisioned/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Deprovision' })).not.toBeInTheDocument();
  });

  it('lists the nodes with their facts and containers, each linked to its app or database (issue 39)', async () => {
    const api = 'http://berth.test/api';
    const node = (id: string, hostname: string, extra: Record<string, unknown>) => ({
      id,
      _type: 'stack_node',
      hostname,
      address: `10.77.${id}.2`,
      role: 'worker',
      leader: false,
      state: 'ready',
      availability: 'active',
      memory_bytes: 4 * 1024 ** 3,
      cpus: 2,
      engine_version: '26.1.5',
      containers: [],
      other_container_count: 0,
      _links: { stack: { href: `${api}/stacks/2` } },
      ...extra,
    });
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2/nodes?per_page=5000': () =>
        json(
          200,
          collection('nodes', [
            node('1', 'node-1', {
              role: 'manager',
              leader: true,
              memory_bytes: 1536 * 1024 ** 2,
              containers: [
                {
                  docker_name: 'shop-web-1',
                  state: 'running',
                  layer: 'app',
                  resource_handle: 'shop',
                  service_handle: 'web',
                  environment_handle: 'production',
                  _links: {
                    service: { href: `${api}/services/31` },
                    account: { href: `${api}/accounts/10` },
                    app: { href: `${api}/apps/21` },
                  },
                },
              ],
              other_container_count: 2,
            }),
            node('2', 'node-2', {
              state: 'down',
              availability: 'drain',
              containers: [
                {
                  docker_name: 'db-postgresql-1',
                  state: 'starting',
                  layer: 'database',
                  resource_handle: 'db',
                  service_handle: 'postgresql',
                  environment_handle: 'production',
                  _links: {
                    service: { href: `${api}/services/32` },
                    account: { href: `${api}/accounts/10` },
                    database: { href: `${api}/databases/41` },
                  },
                },
              ],
            }),
            node('3', 'node-3', {}),
          ]),
        ),
    });
    renderApp('/stacks/2/environments');
    await userEvent.setup().click(await screen.findByRole('link', { name: 'Nodes' }));
    const table = await screen.findByRole('table', { name: 'Nodes' });
    const [header, first, second, third] = within(table).getAllByRole('row');
    expect(
      within(header as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Node',
      'Address',
      'Role',
      'State',
      'Availability',
      'Memory',
      'CPUs',
      'Containers',
      'Actions',
    ]);
    expect(first).toHaveTextContent(
      'node-110.77.1.2manager (leader)readyactive1.5 GB2shop-web-1 shop · web2 other containers (of resources you cannot read)',
    );
    expect(second).toHaveTextContent(
      'node-210.77.2.2workerdowndrain4 GB2db-postgresql-1 db · postgresql (starting)',
    );
    expect(third).toHaveTextContent('node-310.77.3.2workerreadyactive4 GB2None');
    expect(within(table).getByRole('link', { name: 'shop-web-1' })).toHaveAttribute(
      'href',
      '/apps/21/services/31',
    );
    expect(within(table).getByRole('link', { name: 'db-postgresql-1' })).toHaveAttribute(
      'href',
      '/databases/41',
    );
  });

  it('lets a platform owner drain a node, confirmed, then activate it (issue 39)', async () => {
    const api = 'http://berth.test/api';
    let availability = 'active';
    const node = () => ({
      id: 'n1',
      _type: 'stack_node',
      hostname: 'node-1',
      address: '10.77.1.2',
      role: 'worker',
      leader: false,
      state: 'ready',
      availability,
      memory_bytes: 4 * 1024 ** 3,
      cpus: 2,
      engine_version: null,
      containers: [],
      other_container_count: 0,
      _links: { stack: { href: `${api}/stacks/2` } },
    });
    const nodeRoutes = (roleType: string) => ({
      ...routes({ roleType }),
      'GET /api/stacks/2/nodes?per_page=5000': () => json(200, collection('nodes', [node()])),
      'PUT /api/stacks/2/nodes/n1': (call: { body: unknown }) => {
        availability = (call.body as { availability: string }).availability;
        return json(200, node());
      },
    });
    signIn();
    const server = mockServer(nodeRoutes('platform_owner'));
    renderApp('/stacks/2/nodes');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Nodes' });
    await user.click(await within(table).findByRole('button', { name: 'Drain node-1' }));
    expect(
      within(table).getByText('Drain node node-1? Its containers move to the other nodes first.'),
    ).toBeInTheDocument();
    expect(server.callsTo('PUT', '/api/stacks/2/nodes/n1')).toHaveLength(0);
    await user.click(within(table).getByRole('button', { name: 'Confirm drain node-1' }));
    // The list is asked again and shows the drained node with its Activate.
    await user.click(await within(table).findByRole('button', { name: 'Activate node-1' }));
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('active');
    expect(server.callsTo('PUT', '/api/stacks/2/nodes/n1').map((call) => call.body)).toEqual([
      { availability: 'drain' },
      { availability: 'active' },
    ]);
    expect(await within(table).findByRole('button', { name: 'Drain node-1' })).toBeInTheDocument();
  });

  it('shows no node action to a member who is not a platform owner (issue 39)', async () => {
    signIn();
    mockServer({
      ...routes({ roleType: 'platform_user' }),
      'GET /api/stacks/2/nodes?per_page=5000': () =>
        json(
          200,
          collection('nodes', [
            {
              id: 'n1',
              _type: 'stack_node',
              hostname: 'node-1',
              address: '10.77.1.2',
              role: 'worker',
              leader: false,
              state: 'ready',
              availability: 'active',
              memory_bytes: 4 * 1024 ** 3,
              cpus: 2,
              engine_version: null,
              containers: [],
              other_container_count: 0,
              _links: { stack: { href: 'http://berth.test/api/stacks/2' } },
            },
          ]),
        ),
    });
    renderApp('/stacks/2/nodes');
    const table = await screen.findByRole('table', { name: 'Nodes' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('node-1');
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });

  it("says why the nodes cannot be listed when the server cannot reach the stack's runtime", async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2/nodes?per_page=5000': () =>
        json(
          503,
          errorBody(
            503,
            'unavailable',
            'The nodes of stack engines-prod cannot be listed here: its runtime (swarm) does not run in this server process',
          ),
        ),
    });
    renderApp('/stacks/2/nodes');
    expect(
      await screen.findByText(/its runtime \(swarm\) does not run in this server process/),
    ).toBeInTheDocument();
  });
});
