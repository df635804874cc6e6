import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { databaseResourceFixture } from '../../../../test/database-fixtures.ts';
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
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';

const detail = {
  ...environmentHal({ id: '10', handle: 'production', apps: 2, databases: 1 }),
  container_count: 5,
  app_container_count: 3,
  database_container_count: 2,
  domain_count: 4,
  total_disk_size: 20,
  total_backup_size: 7.5,
};

function routes(options: { roles?: ReturnType<typeof roleHal>[]; scopes?: string[] } = {}) {
  const permissions = (options.scopes ?? []).map((scope, index) => ({
    id: `p${index}`,
    scope,
    roleId: 'role-dev',
  }));
  const environment = environmentHal({ id: '10', handle: 'production', apps: 2, databases: 1, permissions });
  return {
    ...consoleRoutes({
      stacks: [stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true })],
      roles: options.roles,
      environments: [environment],
    }),
    'GET /api/accounts/10': () => json(200, { ...detail, _embedded: environment._embedded }),
    // 5 or fewer endpoints are listed beside their count (spec 2 §2); none are returned here.
    'GET /api/accounts/10/vhosts': () => json(200, collection('vhosts', [])),
    'GET /api/costs/org-1/accounts': () => json(200, collection('costs', [costHal('10', 'Account', 87.6)])),
    'GET /api/costs/org-1/apps': () => json(200, collection('costs', [costHal('77', 'App', 12.5)])),
    'GET /api/accounts/10/apps': () =>
      json(
        200,
        collection('apps', [
          appResourceFixture({
            id: '77',
            handle: 'web',
            _embedded: {
              services: [
                serviceResourceFixture({ id: '1', appId: '77' }),
                serviceResourceFixture({ id: '2', appId: '77', handle: 'worker', process_type: 'worker' }),
              ],
              current_image: null,
              last_deploy_operation: null,
              last_operation: null,
            },
          }),
        ]),
      ),
  };
}

describe('environment detail (spec 2 §2)', () => {
  it('shows the fields and opens on the apps tab', async () => {
    signIn();
    mockServer(routes());
    const { router } = renderApp('/environments/10');
    const details = await screen.findByRole('region', { name: 'Environment details' });
    expect(router.state.location.pathname).toBe('/environments/10/apps');
    expect(details).toHaveTextContent('Databases1 (2 containers, 20 GB disk)');
    expect(details).toHaveTextContent('Stackshared-us-west-1');
    expect(details).toHaveTextContent('Backups7.5 GB');
    expect(details).toHaveTextContent('Apps2 (3 containers)');
    expect(details).toHaveTextContent('Endpoints4');
    expect(await within(details).findByText('$87.60')).toBeInTheDocument();
    const apps = await screen.findByRole('table', { name: 'Apps' });
    expect(within(apps).getByRole('link', { name: 'web' })).toHaveAttribute('href', '/apps/77');
    expect(
      within(apps)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent?.trim()),
    ).toEqual(['Handle', 'ID', 'Environment', 'Services', 'Est. Monthly Cost']);
    expect(await within(apps).findByText('$12.50')).toBeInTheDocument();
    expect(
      within(within(apps).getAllByRole('row')[1] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['web', '77', 'production', '2', '$12.50']);
    expect(screen.getByRole('link', { name: 'New App' })).toHaveAttribute(
      'href',
      '/create/app?environment_id=10',
    );
  });

  it("says why an app's last operation failed under its handle, from the organization's failures list (issue 41)", async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/organizations/org-1/operations': (call) =>
        json(
          200,
          collection(
            'operations',
            call.path.includes('newest_per_resource=true') && call.path.includes('resource_type=app')
              ? [
                  operationResourceFixture({
                    id: '41',
                    status: 'failed',
                    resource_type: 'app',
                    resource_id: '77',
                    failure_reason: 'Out of memory',
                  }),
                ]
              : [],
          ),
        ),
    });
    renderApp('/environments/10/apps');
    const apps = await screen.findByRole('table', { name: 'Apps' });
    const web = (await within(apps).findByRole('link', { name: 'web' })).closest('td') as HTMLElement;
    await within(web).findByText('Out of memory');
    expect(within(web).getByRole('link', { name: 'View the failed deploy operation' })).toHaveAttribute(
      'href',
      '/operations/41',
    );
  });

  it("says why a database's last operation failed under its handle, on the Databases tab (issue 41)", async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/accounts/10/databases': () =>
        json(200, collection('databases', [databaseResourceFixture({ id: '5', handle: 'orders-db' })])),
      'GET /api/organizations/org-1/operations': (call) =>
        json(
          200,
          collection(
            'operations',
            call.path.includes('newest_per_resource=true') && call.path.includes('resource_type=database')
              ? [
                  operationResourceFixture({
                    id: '42',
                    type: 'provision',
                    status: 'failed',
                    resource_type: 'database',
                    resource_id: '5',
                    failure_reason: 'Disk quota exceeded',
                  }),
                ]
              : [],
          ),
        ),
    });
    renderApp('/environments/10/databases');
    const databases = await screen.findByRole('table', { name: 'Databases' });
    const handle = (await within(databases).findByRole('link', { name: 'orders-db' })).closest(
      'td',
    ) as HTMLElement;
    await within(handle).findByText('Disk quota exceeded');
    expect(within(handle).getByRole('link', { name: 'View the failed provision operation' })).toHaveAttribute(
      'href',
      '/operations/42',
    );
  });

  it('shows the Security tab from the server summary: 2FA, SSO, backups, encryption, endpoints, changes', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/accounts/10/security_summary': () =>
        json(200, {
          id: '10',
          _type: 'security_summary',
          two_factor: {
            members: 3,
            enabled: 1,
            without: [
              { name: 'Ada Lovelace', email: 'ada@example.com' },
              { name: 'Grace Hopper', email: 'grace@example.com' },
            ],
          },
          sso: { configured: true, enforced: false },
          backups: {
            databases: 2,
            enabled: 1,
            without_backups: ['scratch'],
            overdue: 0,
            last_backup_at: '2026-11-28T03:00:00.000Z',
            retention: { daily: 30, monthly: 12, yearly: 5, pitr_days: 0, make_copy: true, keep_final: true },
          },
          encryption: { disks: 2, encrypted: 2 },
          endpoints: {
            total: 3,
            tls: 2,
            without_tls: 1,
            internal: 0,
            ip_allowlisted: 1,
            open_to_all: 2,
            certificates_expiring: 0,
          },
          privileged_activity: [
            {
              id: '5',
              kind: 'permission_granted',
              actor_name: 'Ada Lovelace',
              actor_email: 'ada@example.com',
              subject_name: '',
              subject_email: '',
              detail: 'Full Visibility to the role Auditors',
              created_at: '2026-11-28T10:00:00.000Z',
            },
          ],
          generated_at: '2026-11-28T12:00:00.000Z',
          _links: {
            self: { href: 'http://berth.test/api/accounts/10/security_summary' },
            account: { href: 'http://berth.test/api/accounts/10' },
          },
        }),
    });
    renderApp('/environments/10/security');
    const twoFactor = await screen.findByRole('region', { name: 'Two-factor authentication' });
    expect(within(twoFactor).getByText('1 of 3 members use 2FA')).toBeInTheDocument();
    expect(within(twoFactor).getByText('2 without 2FA')).toBeInTheDocument();
    expect(within(twoFactor).getByRole('list', { name: 'Without 2FA' })).toHaveTextContent(
      'Grace Hopper (grace@example.com)',
    );
    expect(screen.getByRole('region', { name: 'Single sign-on' })).toHaveTextContent('Not enforced');
    const backups = screen.getByRole('region', { name: 'Database backups' });
    expect(backups).toHaveTextContent('1 of 2 databases back up daily');
    expect(within(backups).getByRole('list', { name: 'Backups turned off' })).toHaveTextContent('scratch');
    expect(screen.getByRole('region', { name: 'Database encryption' })).toHaveTextContent(
      '2 of 2 database disks encrypted at rest',
    );
    expect(screen.getByRole('region', { name: 'Endpoints' })).toHaveTextContent('2 of 3 endpoints use TLS');
    expect(screen.getByRole('list', { name: 'Privileged changes, newest first' })).toHaveTextContent(
      'Ada Lovelace granted Full Visibility to the role Auditors on this environment',
    );
  });

  it('says why the Security tab is closed to a member without Full Visibility, and asks nothing', async () => {
    signIn();
    mockServer(routes({ roles: [roleHal({ id: 'role-dev', type: 'platform_user' })], scopes: ['deploy'] }));
    renderApp('/environments/10/security');
    expect(
      await screen.findByText('You do not have "read" permissions for this environment (id:10)'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Two-factor authentication' })).not.toBeInTheDocument();
  });

  it('lists the activity reports, newest first, and asks for one now (POST /accounts/:id/activity_reports)', async () => {
    signIn();
    const report = (
      id: string,
      status: 'pending' | 'ready' | 'failed',
      kind: 'weekly' | 'on_demand',
      days: [string, string],
    ) => ({
      id,
      _type: 'activity_report',
      starts_at: `${days[0]}T00:00:00.000Z`,
      ends_at: `${days[1]}T00:00:00.000Z`,
      filename: `activity-production-${days[0]}.csv`,
      status,
      kind,
      operation_count: 12,
      ready_at: status === 'ready' ? `${days[1]}T01:00:00.000Z` : null,
      created_at: `${days[1]}T00:30:00.000Z`,
      updated_at: `${days[1]}T00:30:00.000Z`,
      _links: {
        self: { href: `http://berth.test/api/activity_reports/${id}` },
        account: { href: 'http://berth.test/api/accounts/10' },
        download: { href: `http://berth.test/api/activity_reports/${id}/download` },
      },
    });
    const weekly = report('7', 'ready', 'weekly', ['2026-11-16', '2026-11-23']);
    const asked = report('8', 'pending', 'on_demand', ['2026-11-21', '2026-11-28']);
    // Tried 3 times without success: marked failed, with nothing to download.
    const broken = report('6', 'failed', 'weekly', ['2026-11-09', '2026-11-16']);
    const { calls } = mockServer({
      ...routes(),
      'GET /api/accounts/10/activity_reports?page=1': [
        () => json(200, { ...collection('activity_reports', [weekly, broken]), per_page: 40 }),
        () => json(200, { ...collection('activity_reports', [asked, weekly, broken]), per_page: 40 }),
      ],
      'POST /api/accounts/10/activity_reports': () => json(201, asked),
    });
    renderApp('/environments/10/activity_reports');
    const table = await screen.findByRole('table', { name: 'Activity reports' });
    expect(await within(table).findByText('2026-11-16 to 2026-11-22')).toBeInTheDocument();
    expect(
      within(table).getByRole('button', { name: 'Download activity-production-2026-11-16.csv' }),
    ).toBeVisible();
    expect(within(table).getByText('Failed')).toBeInTheDocument();
    expect(
      within(table).queryByRole('button', { name: 'Download activity-production-2026-11-09.csv' }),
    ).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Make a report now' }));
    expect(await within(table).findByText('Preparing')).toBeInTheDocument();
    expect(within(table).getByText('On demand')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      '/api/accounts/10/activity_reports',
    ]);
  });

  it("says once that there is no activity report yet, in the spec's empty text (spec 3 §2)", async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/accounts/10/activity_reports?page=1': () =>
        json(200, { ...collection('activity_reports', []), per_page: 40 }),
    });
    renderApp('/environments/10/activity_reports');
    const table = await screen.findByRole('table', { name: 'Activity reports' });
    expect(await within(table).findByText('No resources found')).toBeInTheDocument();
    expect(screen.getAllByText(/^No (resources found|activity reports)/)).toHaveLength(1);
  });

  it('says why the Activity Reports tab is closed to a member without Full Visibility', async () => {
    signIn();
    mockServer(routes({ roles: [roleHal({ id: 'role-dev', type: 'platform_user' })], scopes: ['deploy'] }));
    renderApp('/environments/10/activity_reports');
    expect(
      await screen.findByText('You do not have "read" permissions for this environment (id:10)'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Activity reports' })).not.toBeInTheDocument();
  });

  it('lists the log and metric drains on Integrations, with what each shipped and its actions', async () => {
    signIn();
    const drain = (id: string, handle: string, status: string, extra: Record<string, unknown> = {}) => ({
      id,
      _type: 'log_drain',
      handle,
      drain_type: 'https_post',
      drain_host: 'intake.example.com',
      drain_port: '443',
      url: 'https://intake.example.com/••••',
      logging_token: '',
      drain_username: '',
      drain_password: '',
      drain_apps: true,
      drain_databases: true,
      drain_ephemeral_sessions: false,
      drain_proxies: false,
      status,
      lines_sent: 1234,
      lines_dropped: 0,
      last_error: '',
      last_shipped_at: null,
      created_at: '2026-11-01T00:00:00.000Z',
      updated_at: '2026-11-01T00:00:00.000Z',
      _embedded: { backend: { channel: 'datadog' } },
      _links: {
        self: { href: `http://berth.test/api/log_drains/${id}` },
        account: { href: 'http://berth.test/api/accounts/10' },
        operations: { href: `http://berth.test/api/log_drains/${id}/operations` },
      },
      ...extra,
    });
    mockServer({
      ...routes({ scopes: ['observability'] }),
      'GET /api/accounts/10/metric_drains': () =>
        json(
          200,
          collection('metric_drains', [
            {
              id: '5',
              _type: 'metric_drain',
              handle: 'to-influx',
              drain_type: 'influxdb2',
              drain_configuration: {
                address: 'https://influx.example.com:443',
                org: 'o',
                authToken: '••••',
                bucket: 'b',
              },
              status: 'provisioned',
              aggregator_host: '',
              aggregator_instance_id: '',
              aggregator_docker_name: '',
              aggregator_ca_certificate: '',
              aggregator_ca_private_key_blob: '',
              aggregator_port_mapping: [],
              aggregator_allocation: [],
              points_sent: 42,
              last_error: '',
              last_shipped_at: null,
              created_at: '2026-11-01T00:00:00.000Z',
              updated_at: '2026-11-01T00:00:00.000Z',
              _links: {
                self: { href: 'http://berth.test/api/metric_drains/5' },
                account: { href: 'http://berth.test/api/accounts/10' },
                operations: { href: 'http://berth.test/api/metric_drains/5/operations' },
              },
            },
          ]),
        ),
      'GET /api/accounts/10/log_drains': () =>
        json(
          200,
          collection('log_drains', [
            drain('1', 'to-datadog', 'provisioned'),
            drain('2', 'broken', 'provision_failed', { lines_sent: 0, last_error: 'Cannot reach the drain' }),
          ]),
        ),
    });
    renderApp('/environments/10/integrations');
    const table = await screen.findByRole('table', { name: 'Log drains of environment 10' });
    const shipping = await within(table).findByRole('row', { name: /to-datadog/ });
    expect(shipping).toHaveTextContent('Datadog');
    expect(shipping).toHaveTextContent('1,234 lines sent');
    expect(within(shipping).getByRole('button', { name: 'Restart to-datadog' })).toBeInTheDocument();
    const broken = within(table).getByRole('row', { name: /broken/ });
    expect(broken).toHaveTextContent('Provision Failed');
    expect(broken).toHaveTextContent('Cannot reach the drain');
    expect(within(broken).getByRole('button', { name: 'Delete broken' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Log Drain' })).toHaveAttribute(
      'href',
      '/log-drains/create?environment_id=10',
    );
    const metrics = await screen.findByRole('table', { name: 'Metric drains of environment 10' });
    const influx = await within(metrics).findByRole('row', { name: /to-influx/ });
    expect(influx).toHaveTextContent('InfluxDB 2');
    expect(influx).toHaveTextContent('https://influx.example.com:443');
    expect(influx).toHaveTextContent('42 points sent');
    expect(screen.getByRole('link', { name: 'New Metric Drain' })).toHaveAttribute(
      'href',
      '/metric-drains/create?environment_id=10',
    );
  });

  it('renames with the acknowledgment (PATCH /accounts/:id)', async () => {
    signIn();
    const server = mockServer({
      ...routes(),
      'PATCH /api/accounts/10': () => json(200, { ...detail, handle: 'prod-eu' }),
    });
    renderApp('/environments/10/settings');
    const user = userEvent.setup();
    const handle = await screen.findByRole('textbox', { name: 'New handle' });
    await user.clear(handle);
    await user.type(handle, 'prod-eu');
    await user.click(screen.getByRole('button', { name: 'Rename Environment' }));
    expect(
      await screen.findByText('You must acknowledge the impact of renaming this environment'),
    ).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/api/accounts/10')).toHaveLength(0);
    await user.click(screen.getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Rename Environment' }));
    expect(await screen.findByText('Environment renamed to prod-eu')).toBeInTheDocument();
    expect(server.callsTo('PATCH', '/api/accounts/10')[0]?.body).toEqual({ handle: 'prod-eu' });
  });

  it("shows the server's refusal of a deprovision while resources remain", async () => {
    signIn();
    mockServer({
      ...routes(),
      'DELETE /api/accounts/10': () =>
        json(
          422,
          errorBody(422, 'unprocessable_entity', 'Cannot deprovision this environment while it has: 2 apps'),
        ),
    });
    renderApp('/environments/10/settings');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Deprovision Environment' });
    expect(button).toBeDisabled();
    await user.type(
      screen.getByRole('textbox', { name: 'Type the environment handle to confirm' }),
      'production',
    );
    await user.click(button);
    expect(
      await screen.findByText('Cannot deprovision this environment while it has: 2 apps'),
    ).toBeInTheDocument();
  });

  it('disables the actions of a read-only member with the scope tooltips', async () => {
    signIn();
    mockServer(
      routes({
        roles: [roleHal({ id: 'role-dev', type: 'platform_user', name: 'Readers' })],
        scopes: ['basic_read'],
      }),
    );
    renderApp('/environments/10/settings');
    const rename = await screen.findByRole('button', { name: 'Rename Environment' });
    expect(rename).toHaveAttribute('aria-disabled', 'true');
    expect(rename).toHaveAccessibleDescription(
      deniedDescription('You do not have "admin" permissions for this environment (id:10)', 'production'),
    );
    const deprovision = screen.getByRole('button', { name: 'Deprovision Environment' });
    expect(deprovision).toHaveAttribute('aria-disabled', 'true');
    expect(deprovision).toHaveAccessibleDescription(
      deniedDescription('You do not have "destroy" permissions for this environment (id:10)', 'production'),
    );

    const sections = screen.getByRole('navigation', { name: 'Environment sections' });
    await userEvent.setup().click(within(sections).getByRole('link', { name: 'Apps' }));
    const newApp = await screen.findByRole('button', { name: 'New App' });
    expect(newApp).toHaveAttribute('aria-disabled', 'true');
    expect(newApp).toHaveAccessibleDescription(
      deniedDescription('You do not have "deploy" permissions for this environment (id:10)', 'production'),
    );
  });
});
