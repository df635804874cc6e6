import { consoleRoutes } from './console-routes.ts';
import { type DatabaseFixture, databaseImageFixture, databaseResourceFixture } from './database-fixtures.ts';
import { json, mockServer } from './fetch-mock.ts';
import { collection, environmentHal, roleHal, stackHal, TEST_CONFIG } from './fixtures.ts';
import { signIn } from './render.tsx';
import { type ServiceFixture, serviceResourceFixture } from './service-fixtures.ts';

/** Database 1's service 21 (no app) as the server answers it; `fields` replace the defaults. */
export function databaseServiceFixture(fields: ServiceFixture = {}) {
  return serviceResourceFixture({
    id: '21',
    appId: null,
    handle: 'orders-db',
    process_type: 'database',
    _links: { database: { href: `${TEST_CONFIG.apiUrl}/databases/1` } },
    ...fields,
  });
}

export interface DatabaseConsoleSetup {
  /** The caller's scope on environment 10; an owner when absent. */
  scope?: string;
  /** Database 1's fields, as GET /api/databases/1 answers them. */
  database?: DatabaseFixture;
  image?: Parameters<typeof databaseImageFixture>[0];
  /** Database 1's service 21, as GET /api/services/21 answers it; databaseServiceFixture() when absent. */
  service?: () => unknown;
  /** More routes, or answers that replace these. */
  routes?: Parameters<typeof mockServer>[0];
}

/**
 * A signed-in console on environment 10 (production, default stack 1) of an owner, or of a caller with
 * `scope` there, answering database 1's page: the database, its image, its service and no operations.
 */
export function databaseConsoleServer({
  scope,
  database = {},
  image = {},
  service = () => databaseServiceFixture(),
  routes = {},
}: DatabaseConsoleSetup) {
  signIn();
  return mockServer({
    ...consoleRoutes({
      roles: scope ? [roleHal({ id: 'role-2', name: 'Team', type: 'platform_user' })] : [roleHal()],
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [
        environmentHal({
          id: '10',
          handle: 'production',
          permissions: scope ? [{ id: 'p1', scope, roleId: 'role-2' }] : [],
        }),
      ],
    }),
    'GET /api/databases/1': () => json(200, databaseResourceFixture(database)),
    'GET /api/database_images': () => json(200, collection('database_images', [databaseImageFixture(image)])),
    'GET /api/services/21': () => json(200, service()),
    'GET /api/databases/1/operations': () => json(200, collection('operations', [])),
    'GET /api/stacks/1': () => json(200, { ...stackHal({ id: '1' }), allow_m_instance_profile: true }),
    ...routes,
  });
}
