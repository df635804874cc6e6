import type { EdgeResource } from '@berth/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { databaseResourceFixture } from '../../../../test/database-fixtures.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, HOST, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

// spec 2 §2: the app's Dependencies tab lists the databases and apps it uses, for read scope only.

const EDGES = `${HOST}/api/edges?root_resource_id=1&root_resource_type=app&max_distance=1`;

const shop = () =>
  appResourceFixture({
    id: '1',
    handle: 'shop',
    _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
  });

function edge(
  source: EdgeResource['_embedded']['source_resource'],
  destination: EdgeResource['_embedded']['destination_resource'],
  relationshipType: string,
): EdgeResource {
  const id = `${source._type}-${source.id}-${destination._type}-${destination.id}`;
  return {
    id,
    _type: 'edge',
    relationship_type: relationshipType,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    _links: {
      self: { href: `${HOST}/api/edges/${id}` },
      source_resource: source._links.self,
      destination_resource: destination._links.self,
    },
    _embedded: { source_resource: source, destination_resource: destination },
  };
}

function page(edges: EdgeResource[], next?: string) {
  const list = collection('edges', edges);
  return { ...list, _links: { self: { href: EDGES }, ...(next ? { next: { href: next } } : {}) } };
}

/** A member whose role holds `scope` on environment 10, looking at app 1; `/edges` answers `edges`. */
function appConsole(scope: string, edges: (path: string) => Response) {
  signIn();
  return mockServer({
    ...consoleRoutes({
      roles: [roleHal({ id: 'role-2', name: 'Team', type: 'platform_user' })],
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [environmentHal({ id: '10', permissions: [{ id: 'p1', scope, roleId: 'role-2' }] })],
    }),
    'GET /api/apps/1': () => json(200, shop()),
    'GET /api/apps/1/deployments': () => json(200, collection('deployments', [])),
    'GET /api/apps/1/services': () => json(200, collection('services', [])),
    'GET /api/costs/org-1/services': () => json(200, collection('costs', [])),
    'GET /api/costs/org-1/apps': () => json(200, collection('costs', [])),
    'GET /api/edges': (call) => edges(call.path),
  });
}

describe('app Dependencies tab', () => {
  it('lists each database and app the app depends on, following the next pages', async () => {
    const orders = databaseResourceFixture({ id: '7', handle: 'orders-db' });
    const catalog = appResourceFixture({ id: '2', handle: 'catalog' });
    const checkout = appResourceFixture({ id: '3', handle: 'checkout' });
    const server = appConsole('read', (path) =>
      path.includes('page=2')
        ? json(
            200,
            page([
              edge(shop(), catalog, 'app_endpoint'),
              // An app that uses shop is not one of shop's dependencies.
              edge(checkout, shop(), 'app_endpoint'),
            ]),
          )
        : json(200, page([edge(shop(), orders, 'database_connection')], `${EDGES}&page=2&per_page=1`)),
    );
    renderApp('/apps/1/deps');

    const table = await screen.findByRole('table', { name: 'Dependencies' });
    await within(table).findByRole('link', { name: 'catalog' });
    // The rows under the header, in the order the server answered.
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      "orders-dbDatabaseConnects to it: a configuration variable holds the database's host",
      'catalogAppCalls it: a configuration variable holds a host name of its endpoint',
    ]);
    expect(within(table).getByRole('link', { name: 'orders-db' })).toHaveAttribute('href', '/databases/7');
    expect(within(table).getByRole('link', { name: 'catalog' })).toHaveAttribute('href', '/apps/2');
    expect(within(table).queryByText('checkout')).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/api/edges').map((call) => call.path)).toEqual([
      '/api/edges?root_resource_id=1&root_resource_type=app&max_distance=1',
      '/api/edges?root_resource_id=1&root_resource_type=app&max_distance=1&page=2&per_page=1',
    ]);
  });

  it('says so when the app depends on nothing, with where dependencies are found', async () => {
    appConsole('read', () => json(200, page([])));
    renderApp('/apps/1/deps');
    expect(await screen.findByText('No resources found')).toBeInTheDocument();
    expect(screen.getByText(/Found from the app's configuration/)).toBeInTheDocument();
  });

  it('shows a failed load as an error, not as an empty list', async () => {
    appConsole('read', () => json(500, errorBody(500, 'internal_server_error', 'Edges are unavailable')));
    renderApp('/apps/1/deps');
    expect(await screen.findByText('Error: Edges are unavailable')).toBeInTheDocument();
    expect(screen.queryByText('No resources found')).not.toBeInTheDocument();
  });

  it('is neither shown nor reachable without read scope on the environment', async () => {
    const server = appConsole('basic_read', () => json(200, page([])));
    renderApp('/apps/1/deps');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Dependencies' })).not.toBeInTheDocument();
    expect(server.callsTo('GET', '/api/edges')).toEqual([]);
  });
});
