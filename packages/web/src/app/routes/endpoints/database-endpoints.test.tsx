import { endpointMessages, scopeDenialMessage } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { databaseConsoleServer, databaseServiceFixture } from '../../../../test/database-console.ts';
import {
  databaseCredentialFixture,
  type databaseResourceFixture,
} from '../../../../test/database-fixtures.ts';
import { json, type mockServer } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { type VhostFixture, vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';

const API = TEST_CONFIG.apiUrl;
const TIMESTAMP = '2026-01-01T00:00:00.000Z';

/** A tcp endpoint of database 1 (its service 21), as the server answers it. */
function databaseVhost(fields: VhostFixture = {}) {
  return vhostResourceFixture({
    id: '7',
    serviceId: '21',
    type: 'tcp',
    platform: 'elb',
    default: false,
    virtual_domain: '',
    external_host: 'elb-production-7-abc123.us-east-1.on-berth.localhost',
    resource_type: 'database',
    resource_id: '1',
    resource_handle: 'orders-db',
    created_at: TIMESTAMP,
    ...fields,
  });
}

function provisionOperation() {
  return operationResourceFixture({
    id: '40',
    type: 'provision',
    status: 'queued',
    resource_type: 'vhost',
    resource_id: '7',
    created_at: TIMESTAMP,
    _links: { account: { href: `${API}/accounts/10` } },
  });
}

/** The console of an owner (or of a caller with `scope` on environment 10) with database 1. */
function databaseConsole({
  scope,
  database = {},
  routes = {},
}: {
  scope?: string;
  database?: Parameters<typeof databaseResourceFixture>[0];
  routes?: Parameters<typeof mockServer>[0];
} = {}) {
  return databaseConsoleServer({
    scope,
    database: { port_mapping: [[5432, 27001]], ...database },
    routes: {
      'GET /api/services': () => json(200, collection('services', [databaseServiceFixture()])),
      'GET /api/databases/1/vhosts': () => json(200, collection('vhosts', [])),
      'GET /api/vhosts/7/operations': () => json(200, collection('operations', [])),
      ...routes,
    },
  });
}

describe('database New Endpoint (spec 2 §2, §4 provisioning flow)', () => {
  it('is offered on the Endpoints tab, creates a tcp endpoint, provisions it and opens it', async () => {
    const server = databaseConsole({
      routes: {
        'POST /api/services/21/vhosts': () =>
          json(201, databaseVhost({ status: 'pending', external_host: null })),
        'POST /api/vhosts/7/operations': () => json(201, provisionOperation()),
        'GET /api/vhosts/7': () => json(200, databaseVhost({ status: 'provisioning', external_host: null })),
      },
    });
    renderApp('/databases/1/endpoints');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Endpoints of database 1' });
    expect(await within(table).findByText('No resources found')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'New Endpoint' }));

    expect(await screen.findByRole('heading', { name: 'New Endpoint' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /^External/ })).toBeChecked();
    // Only placement and allowlist: a database endpoint has no traffic type, domain or token.
    expect(screen.queryByRole('radio', { name: 'HTTP' })).toBeNull();
    expect(screen.queryByLabelText('Header Token')).toBeNull();
    await user.click(screen.getByRole('radio', { name: /^Internal/ }));
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '203.0.113.7\n10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: 'Save Endpoint' }));

    expect(await screen.findByRole('region', { name: 'Endpoint details' })).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/21/vhosts')[0]?.body).toEqual({
      type: 'tcp',
      platform: 'elb',
      acme: false,
      default: false,
      internal: true,
      ip_whitelist: ['203.0.113.7', '10.0.0.0/8'],
    });
    expect(server.callsTo('POST', '/api/vhosts/7/operations')[0]?.body).toEqual({ type: 'provision' });
    const details = screen.getByRole('region', { name: 'Endpoint details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    expect(value('Resource')).toBe('orders-db');
    expect(value('Status')).toBe('Provisioning');
  });

  it("shows core's allowlist message under the field and sends nothing", async () => {
    const server = databaseConsole();
    renderApp('/databases/1/endpoints/create');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'IP Allowlist' }), '300.1.1.1');
    await user.click(screen.getByRole('button', { name: 'Save Endpoint' }));
    expect(await screen.findByText(endpointMessages.ipAllowlistEntry('300.1.1.1'))).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/21/vhosts')).toHaveLength(0);
  });

  it("shows the server's message when the create is refused", async () => {
    databaseConsole({
      routes: {
        'POST /api/services/21/vhosts': () =>
          json(422, errorBody(422, 'unprocessable_entity', 'The stack has no room for another endpoint')),
      },
    });
    renderApp('/databases/1/endpoints/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Endpoint' }));
    expect(await screen.findByText('The stack has no room for another endpoint')).toBeInTheDocument();
  });

  it('opens the endpoint with the provisioning error when the provision call fails', async () => {
    const server = databaseConsole({
      routes: {
        'POST /api/services/21/vhosts': () =>
          json(201, databaseVhost({ status: 'pending', external_host: null })),
        'POST /api/vhosts/7/operations': () =>
          json(503, errorBody(503, 'service_unavailable', 'The operation queue is unavailable')),
        'GET /api/vhosts/7': () => json(200, databaseVhost({ status: 'pending', external_host: null })),
      },
    });
    renderApp('/databases/1/endpoints/create');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Save Endpoint' }));
    expect(await screen.findByText(/The operation queue is unavailable/)).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/services/21/vhosts')).toHaveLength(1);
  });

  it('is disabled for a caller without the scope to create endpoints', async () => {
    databaseConsole({ scope: 'read' });
    renderApp('/databases/1/endpoints');
    // Denied, the link is a disabled button whose tooltip says why.
    expect(await screen.findByRole('button', { name: 'New Endpoint' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(screen.queryByRole('link', { name: 'New Endpoint' })).toBeNull();
  });

  it('waits for a database that is not provisioned yet (no service)', async () => {
    const server = databaseConsole({
      database: { status: 'pending', provisioned: false, _links: { service: undefined } },
    });
    renderApp('/databases/1/endpoints/create');
    expect(await screen.findByText(/not provisioned yet/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save Endpoint' }));
    expect(server.callsTo('POST', '/api/services/21/vhosts')).toHaveLength(0);
  });
});

describe('endpoint Connection URL tab (spec 2 §2, database endpoints)', () => {
  it("rewrites the database's credentials to the endpoint's host and published port", async () => {
    databaseConsole({
      routes: {
        'GET /api/vhosts/7': () => json(200, databaseVhost()),
        'GET /api/databases/1/database_credentials': () =>
          json(200, collection('database_credentials', [databaseCredentialFixture()])),
      },
    });
    renderApp('/endpoints/7');
    const user = userEvent.setup();
    const tabs = await screen.findByRole('navigation', { name: 'Endpoint tabs' });
    await user.click(within(tabs).getByRole('link', { name: 'Connection URL' }));
    // The password stays masked until Reveal (issue 41).
    expect(
      await screen.findByText(
        'postgresql://berth:•••@elb-production-7-abc123.us-east-1.on-berth.localhost:27001/db',
      ),
    ).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('s3cret-password');
    await user.click(screen.getByRole('button', { name: 'Reveal the connection URL of postgresql' }));
    expect(
      screen.getByText(
        'postgresql://berth:s3cret-password@elb-production-7-abc123.us-east-1.on-berth.localhost:27001/db',
      ),
    ).toBeInTheDocument();
  });

  it('is hidden without the sensitive scope, and says why when opened directly', async () => {
    const server = databaseConsole({
      scope: 'read',
      routes: { 'GET /api/vhosts/7': () => json(200, databaseVhost()) },
    });
    renderApp('/endpoints/7/credentials');
    expect(await screen.findByText(scopeDenialMessage('sensitive', '10'))).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Endpoint tabs' });
    expect(within(tabs).queryByRole('link', { name: 'Connection URL' })).toBeNull();
    expect(server.callsTo('GET', '/api/databases/1/database_credentials')).toHaveLength(0);
  });

  it('is not offered for an app endpoint', async () => {
    databaseConsole({
      routes: {
        'GET /api/vhosts/7': () => json(200, vhostResourceFixture({ id: '7', created_at: TIMESTAMP })),
      },
    });
    renderApp('/endpoints/7');
    const tabs = await screen.findByRole('navigation', { name: 'Endpoint tabs' });
    await waitFor(() => expect(within(tabs).getAllByRole('link').length).toBeGreaterThan(0));
    expect(within(tabs).queryByRole('link', { name: 'Connection URL' })).toBeNull();
  });
});

describe('database Activity tab filters', () => {
  it("offers the resource types of the database's list: the database, its service and its endpoints", async () => {
    databaseConsole();
    renderApp('/databases/1/activity');
    const select = await screen.findByRole('combobox', { name: 'Resource type' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value')),
    ).toEqual(['all', 'database', 'service', 'vhost']);
  });
});
