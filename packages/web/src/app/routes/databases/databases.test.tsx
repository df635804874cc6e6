import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import {
  databaseImageFixture,
  databaseResourceFixture,
  diskResourceFixture,
} from '../../../../test/database-fixtures.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import {
  collection,
  costHal,
  environmentHal,
  errorBody,
  roleHal,
  TEST_CONFIG,
} from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';

const api = TEST_CONFIG.apiUrl;

const environments = [
  environmentHal({ id: '10', handle: 'production' }),
  environmentHal({ id: '20', handle: 'staging' }),
];

/** A database service (no app): its memory limit is the database's container size. */
function databaseService(id: string, databaseId: string, memoryMb: number) {
  return serviceResourceFixture({
    id,
    appId: null,
    container_memory_limit_mb: memoryMb,
    _links: { database: { href: `${api}/databases/${databaseId}` } },
  });
}

const orders = databaseResourceFixture({
  id: '1',
  handle: 'orders-db',
  created_at: '2026-01-01T00:00:00.000Z',
  _embedded: { disk: diskResourceFixture({ id: '11', databaseId: '1', size: 25 }), last_operation: null },
});
const cache = databaseResourceFixture({
  id: '2',
  handle: 'cache',
  type: 'redis',
  enable_backups: false,
  environmentId: '20',
  created_at: '2026-02-01T00:00:00.000Z',
  _embedded: { disk: diskResourceFixture({ id: '12', databaseId: '2', size: 10 }), last_operation: null },
});
const bare = (database: ReturnType<typeof databaseResourceFixture>) => {
  const { _embedded, ...rest } = database;
  return rest;
};

function listConsole() {
  signIn();
  return mockServer({
    ...consoleRoutes({ environments }),
    'GET /api/databases': (call) =>
      json(
        200,
        collection(
          'databases',
          call.path.includes('no_embed=true') ? [bare(orders), bare(cache)] : [orders, cache],
        ),
      ),
    'GET /api/services': () =>
      json(200, collection('services', [databaseService('31', '1', 2048), databaseService('32', '2', 512)])),
    'GET /api/costs/org-1/databases': () =>
      json(200, collection('costs', [costHal('1', 'Database', 120.5), costHal('2', 'Database', 30)])),
  });
}

const table = () => screen.getByRole('table', { name: 'Databases' });
const handles = () =>
  within(table())
    .getAllByRole('link')
    .filter((link) => !link.textContent?.startsWith('Scale'))
    .map((link) => link.textContent);

describe('the Databases list (spec 2 §2)', () => {
  it('shows the spec columns, newest first, with disk, container size, backups and cost', async () => {
    const server = listConsole();
    renderApp('/databases');
    await screen.findByRole('link', { name: 'cache' });
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Handle'),
        expect.stringContaining('ID'),
        expect.stringContaining('Environment'),
        expect.stringContaining('Disk Size'),
        expect.stringContaining('Container Size'),
        expect.stringContaining('Backups'),
        expect.stringContaining('Est. Monthly Cost'),
        expect.stringContaining('Scaling Recs'),
      ]),
    );
    expect(handles()).toEqual(['cache', 'orders-db']);
    await screen.findByText('25 GB');
    const ordersRow = screen.getByRole('link', { name: 'orders-db' }).closest('tr') as HTMLElement;
    expect(within(ordersRow).getByText('production')).toBeInTheDocument();
    expect(within(ordersRow).getByText('2 GB')).toBeInTheDocument();
    expect(within(ordersRow).getByText('Enabled')).toBeInTheDocument();
    expect(within(ordersRow).getByText('Right Sized')).toBeInTheDocument();
    await within(ordersRow).findByText('$120.50');
    expect(screen.getByRole('link', { name: 'orders-db' })).toHaveAttribute('href', '/databases/1');
    expect(within(ordersRow).getByRole('link', { name: 'Scale orders-db' })).toHaveAttribute(
      'href',
      '/databases/1/scale',
    );
    const cacheRow = screen.getByRole('link', { name: 'cache' }).closest('tr') as HTMLElement;
    expect(within(cacheRow).getByText('0.5 GB')).toBeInTheDocument();
    expect(within(cacheRow).getByText('Disabled')).toBeInTheDocument();
    expect(within(cacheRow).getByText('staging')).toBeInTheDocument();
    // The total cost row under the table.
    expect(screen.getByRole('status', { name: 'Total Est. Monthly Cost' })).toHaveTextContent('$150.50');
    expect(server.calls.map((call) => call.path)).toContain('/api/costs/org-1/databases?per_page=5000');
    // Two environments: New Database asks for one first.
    expect(screen.getByRole('link', { name: 'New Database' })).toHaveAttribute('href', '/create/db');
  });

  it('searches by handle, environment, type and id, and sorts by disk size', async () => {
    listConsole();
    renderApp('/databases');
    await screen.findByRole('link', { name: 'cache' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox'), 'REDIS');
    await waitFor(() => expect(handles()).toEqual(['cache']));
    await user.clear(screen.getByRole('searchbox'));
    await user.type(screen.getByRole('searchbox'), 'production');
    await waitFor(() => expect(handles()).toEqual(['orders-db']));
    await user.clear(screen.getByRole('searchbox'));
    await waitFor(() => expect(handles()).toHaveLength(2));
    await screen.findByText('25 GB');
    await user.click(within(table()).getByRole('button', { name: /Disk Size/ }));
    await waitFor(() => expect(handles()).toEqual(['cache', 'orders-db']));
    await user.click(within(table()).getByRole('button', { name: /Disk Size/ }));
    await waitFor(() => expect(handles()).toEqual(['orders-db', 'cache']));
  });

  it('lists an environment’s databases on its Databases tab, with New Database', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({ environments }),
      'GET /api/accounts/10': () => json(200, environments[0]),
      'GET /api/accounts/10/vhosts': () => json(200, collection('vhosts', [])),
      'GET /api/accounts/10/databases': () => json(200, collection('databases', [orders])),
      'GET /api/costs/org-1/databases': () => json(200, collection('costs', [costHal('1', 'Database', 9)])),
    });
    renderApp('/environments/10/databases');
    await screen.findByRole('link', { name: 'orders-db' });
    expect(within(table()).getByText('25 GB')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Database' })).toHaveAttribute(
      'href',
      '/create/db?environment_id=10',
    );
  });
});

const images = [
  databaseImageFixture({ id: '1', type: 'postgresql', version: '17', description: 'PostgreSQL 17' }),
  databaseImageFixture({
    id: '2',
    type: 'elasticsearch',
    version: '8',
    description: 'Elasticsearch 8',
    default: false,
  }),
  databaseImageFixture({ id: '3', type: 'redis', version: '7', description: 'Redis 7', default: false }),
  databaseImageFixture({ id: '4', type: 'mysql', version: '5', description: 'Hidden', visible: false }),
];

function createConsole(
  options: { create?: () => Response; roles?: ReturnType<typeof roleHal>[]; scopes?: string[] } = {},
) {
  signIn();
  const permissions = (options.scopes ?? []).map((scope, index) => ({
    id: `p${index}`,
    scope,
    roleId: 'role-dev',
  }));
  return mockServer({
    ...consoleRoutes({
      roles: options.roles,
      environments: [environmentHal({ id: '10', handle: 'production', permissions })],
    }),
    'GET /api/database_images': () => json(200, collection('database_images', images)),
    'POST /api/accounts/10/databases':
      options.create ??
      ((call) =>
        json(
          201,
          databaseResourceFixture({
            id: '7',
            handle: (call.body as { handle: string }).handle,
            status: 'pending',
            provisioned: false,
          }),
        )),
    'POST /api/databases/7/operations': () => json(201, { id: '99', _type: 'operation' }),
    'GET /api/databases/7': () => json(200, databaseResourceFixture({ id: '7' })),
  });
}

const handleBox = () => screen.getByRole('textbox', { name: 'Handle' }) as HTMLInputElement;

describe('Create Database (spec 2 §2, spec 3 §2)', () => {
  it('asks for the environment when environment_id is missing', async () => {
    createConsole();
    renderApp('/create/db');
    await screen.findByRole('heading', { name: 'Choose your Environment' });
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute(
      'href',
      '/create/db?environment_id=10',
    );
  });

  it('suggests the handle from the environment and type, again when the type changes, until edited', async () => {
    createConsole();
    renderApp('/create/db?environment_id=10');
    const type = await screen.findByRole('combobox', { name: 'Database Type' });
    // Visible images only, in the catalog's order (description, descending); the default is chosen.
    expect(
      within(type)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Redis 7', 'PostgreSQL 17', 'Elasticsearch 8']);
    expect(handleBox().value).toMatch(/^production-[a-z0-9]{5}-postgresql$/);
    const user = userEvent.setup();
    await user.selectOptions(type, 'Redis 7');
    expect(handleBox().value).toMatch(/^production-[a-z0-9]{5}-redis$/);
    await user.clear(handleBox());
    await user.type(handleBox(), 'my-cache');
    await user.selectOptions(type, 'PostgreSQL 17');
    expect(handleBox().value).toBe('my-cache');
    // Defaults: 1 GB container, 10 GB disk, backups on.
    expect(screen.getByRole('combobox', { name: 'Container Size' })).toHaveValue('1024');
    expect(screen.getByRole('spinbutton', { name: 'Disk Size (GB)' })).toHaveValue(10);
    expect(screen.getByRole('checkbox', { name: 'Enable backups' })).toBeChecked();
  });

  it('keeps Elasticsearch at 1024 MB or more', async () => {
    createConsole();
    renderApp('/create/db?environment_id=10');
    const user = userEvent.setup();
    const size = await screen.findByRole('combobox', { name: 'Container Size' });
    await user.selectOptions(size, '512');
    expect(size).toHaveValue('512');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Database Type' }), 'Elasticsearch 8');
    expect(size).toHaveValue('1024');
    expect(within(size).queryByRole('option', { name: '0.5 GB' })).toBeNull();
  });

  it('creates the record, then provisions it with the sizes, and opens the database', async () => {
    const server = createConsole();
    const { router } = renderApp('/create/db?environment_id=10');
    const user = userEvent.setup();
    await screen.findByRole('combobox', { name: 'Database Type' });
    await user.clear(handleBox());
    await user.type(handleBox(), 'Orders-DB');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Container Size' }), '2048');
    const disk = screen.getByRole('spinbutton', { name: 'Disk Size (GB)' });
    await user.clear(disk);
    await user.type(disk, '99999');
    await user.tab();
    expect(disk).toHaveValue(16384);
    await user.click(screen.getByRole('checkbox', { name: 'Enable backups' }));
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databases/7'));
    expect(server.callsTo('POST', '/api/accounts/10/databases')[0]?.body).toEqual({
      handle: 'orders-db',
      type: 'postgresql',
      database_image_id: '1',
      enable_backups: false,
      account_id: '10',
    });
    expect(server.callsTo('POST', '/api/databases/7/operations')[0]?.body).toEqual({
      type: 'provision',
      container_size: 2048,
      disk_size: 16384,
      provisioned_iops: 3000,
      instance_profile: 'm5',
    });
  });

  it('shows the server’s message in the form’s banner', async () => {
    const server = createConsole({
      create: () =>
        json(
          422,
          errorBody(
            422,
            'unprocessable_entity',
            'A database with the handle "x" already exists in this environment',
          ),
        ),
    });
    renderApp('/create/db?environment_id=10');
    const user = userEvent.setup();
    await screen.findByRole('combobox', { name: 'Database Type' });
    await user.click(screen.getByRole('button', { name: 'Create Database' }));
    expect(
      await screen.findByText('A database with the handle "x" already exists in this environment'),
    ).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/databases/7/operations')).toHaveLength(0);
  });

  it('disables Create Database without deploy, with the scope tooltip', async () => {
    const server = createConsole({
      roles: [roleHal({ id: 'role-dev', type: 'platform_user', name: 'Readers' })],
      scopes: ['basic_read'],
    });
    renderApp('/create/db?environment_id=10');
    const submit = await screen.findByRole('button', { name: 'Create Database' });
    expect(submit).toHaveAttribute('aria-disabled', 'true');
    expect(submit).toHaveAccessibleDescription(
      deniedDescription('You do not have "deploy" permissions for this environment (id:10)', 'production'),
    );
    await userEvent.setup().click(submit);
    expect(server.callsTo('POST', '/api/accounts/10/databases')).toHaveLength(0);
  });
});

describe('the dbs prefill on app creation (spec 2 §2)', () => {
  it('prefills the database selectors and checks them', async () => {
    createConsole();
    renderApp('/create/app?environment_id=10&dbs=DATABASE_URL:postgresql:17,CACHE_URL:redis:9');
    const section = await screen.findByRole('region', { name: 'Databases' });
    const variables = await within(section).findAllByRole('textbox', { name: 'Environment Variable' });
    expect(variables.map((input) => (input as HTMLInputElement).value)).toEqual([
      'DATABASE_URL',
      'CACHE_URL',
    ]);
    const pickers = within(section).getAllByRole('combobox', { name: 'Database' });
    expect(pickers[0]).toHaveValue('1');
    expect(pickers[1]).toHaveValue('');
    expect(
      within(section).getByText('Must pick a database or delete the selector from the menu'),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(pickers[1] as HTMLElement, 'Redis 7');
    await user.clear(variables[1] as HTMLElement);
    await user.type(variables[1] as HTMLElement, 'DATABASE_URL');
    expect(
      within(section).getByText('DATABASE_URL has already been used, each database env var must be unique'),
    ).toBeInTheDocument();
  });
});
