import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderWithProviders, signIn } from '../../../../test/render.tsx';
import { OperationResourceLink } from './operation-resource-link.tsx';

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;

describe('OperationResourceLink', () => {
  it("links a service operation to the service page under its app, asking for the service's app once", async () => {
    signIn();
    const server = mockServer({
      'GET /api/services/9': () =>
        json(200, {
          _type: 'service',
          id: '9',
          handle: 'web',
          process_type: 'web',
          container_count: 1,
          container_memory_limit_mb: 1024,
          instance_class: 'm5',
          _links: {
            self: { href: api('/services/9') },
            account: { href: api('/accounts/10') },
            app: { href: api('/apps/7') },
          },
        }),
    });
    const service = { resourceType: 'service', resourceId: '9', resourceHandle: 'web' };
    renderWithProviders(
      <ul>
        <li>
          <OperationResourceLink operation={service} />
        </li>
        <li>
          <OperationResourceLink operation={service} />
        </li>
        <li>
          <OperationResourceLink
            operation={{ resourceType: 'app', resourceId: '7', resourceHandle: 'api' }}
          />
        </li>
      </ul>,
    );
    expect(screen.getByRole('link', { name: 'app api' })).toHaveAttribute('href', '/apps/7');
    await waitFor(() => expect(screen.getAllByRole('link', { name: 'service web' })).toHaveLength(2));
    for (const link of screen.getAllByRole('link', { name: 'service web' })) {
      expect(link).toHaveAttribute('href', '/apps/7/services/9');
    }
    expect(server.callsTo('GET', '/api/services/9')).toHaveLength(1);
  });

  it('shows a service operation as text until its app is known', () => {
    signIn();
    mockServer({ 'GET /api/services/9': () => new Promise<Response>(() => {}) });
    renderWithProviders(
      <OperationResourceLink
        operation={{ resourceType: 'service', resourceId: '9', resourceHandle: 'web' }}
      />,
    );
    expect(screen.getByText('service web')).not.toHaveAttribute('href');
    expect(screen.queryByRole('link')).toBeNull();
  });
});

describe('OperationResourceLink for databases (spec 2 §2 activity)', () => {
  it("links a database operation to the database page and a database's service to its database", async () => {
    signIn();
    mockServer({
      'GET /api/services/21': () =>
        json(200, {
          _type: 'service',
          id: '21',
          handle: 'orders-db',
          process_type: 'database',
          container_count: 1,
          container_memory_limit_mb: 1024,
          instance_class: 'm5',
          _links: {
            self: { href: api('/services/21') },
            account: { href: api('/accounts/10') },
            database: { href: api('/databases/3') },
          },
        }),
    });
    renderWithProviders(
      <ul>
        <li>
          <OperationResourceLink
            operation={{ resourceType: 'database', resourceId: '3', resourceHandle: 'orders-db' }}
          />
        </li>
        <li>
          <OperationResourceLink
            operation={{ resourceType: 'service', resourceId: '21', resourceHandle: 'orders-db' }}
          />
        </li>
        <li>
          <OperationResourceLink
            operation={{ resourceType: 'account', resourceId: '10', resourceHandle: 'production' }}
          />
        </li>
        <li>
          <OperationResourceLink
            operation={{ resourceType: 'backup', resourceId: '55', resourceHandle: 'orders-db' }}
          />
        </li>
      </ul>,
    );
    expect(screen.getByRole('link', { name: 'database orders-db' })).toHaveAttribute('href', '/databases/3');
    expect(screen.getByRole('link', { name: 'account production' })).toHaveAttribute(
      'href',
      '/environments/10',
    );
    expect(await screen.findByRole('link', { name: 'service orders-db' })).toHaveAttribute(
      'href',
      '/databases/3',
    );
    // A backup has no page of its own.
    expect(screen.getByText('backup orders-db')).not.toHaveAttribute('href');
  });
});
