import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../../test/render.tsx';
import { type VhostFixture, vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';
import { type Endpoint, fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { type EndpointRow, EndpointsTable } from './endpoints-table.tsx';

function vhost(id: string, fields: VhostFixture = {}): Endpoint {
  return fromVhostResource(
    vhostResourceFixture({ id, created_at: `2026-01-0${id}T00:00:00.000Z`, ...fields }),
  );
}

function row(endpoint: Endpoint, resourceHandle = 'shop'): EndpointRow {
  return {
    endpoint,
    href: `/endpoints/${endpoint.id}`,
    setupHref: `/endpoints/${endpoint.id}/setup`,
    resourceHandle,
    resourceHref: '/apps/1',
    serviceLabel: 'web',
    serviceHref: null,
  };
}

const ROWS = [
  row(vhost('1', { shared: true })),
  row(vhost('2', { shared: false, internal: true }), 'billing'),
  row(vhost('3', { type: 'tcp', platform: 'elb', default: false })),
  row(vhost('4', { status: 'provisioning' })),
  row(
    vhost('5', {
      default: false,
      acme: true,
      acme_status: 'pending',
      user_domain: 'www.example.com',
      virtual_domain: 'www.example.com',
    }),
  ),
];

function renderTable(path = '/endpoints') {
  renderWithProviders(<EndpointsTable rows={ROWS} isLoading={false} error={null} />, path);
  return screen.getByRole('table', { name: 'Endpoints' });
}

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('EndpointsTable (spec 2 §2, spec 3 §2)', () => {
  it('shows the spec columns, newest first', () => {
    const table = renderTable();
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent?.replace(/[▲▼]/g, ''));
    expect(headers).toEqual([
      'URL',
      'Hostname',
      'Resource',
      'Service',
      'Status',
      'Placement',
      'Platform',
      'Shared',
      'ACME Status',
    ]);
    const first = bodyRows(table)[0] as HTMLElement;
    const cells = within(first)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      'https://www.example.com',
      'elb-5.on-berth.localhost',
      'shop',
      'web',
      // Provisioned, its managed certificate still waiting for DNS (issue 41).
      'Awaiting DNS',
      'External',
      'ALB',
      'No',
      'PendingSetup',
    ]);
  });

  it('shows Pending instead of the URL while an endpoint is provisioning', () => {
    const table = renderTable();
    const provisioning = within(table).getByRole('link', { name: 'Pending' });
    expect(provisioning).toHaveAttribute('href', '/endpoints/4');
    const cells = within(provisioning.closest('tr') as HTMLElement).getAllByRole('cell');
    expect(cells[4]).toHaveTextContent('Provisioning');
  });

  it('offers Setup while an ACME certificate waits on DNS records', () => {
    renderTable();
    const setup = screen.getByRole('link', { name: 'Setup elb-5.on-berth.localhost' });
    expect(setup).toHaveAttribute('href', '/endpoints/5/setup');
    expect(screen.getAllByRole('link', { name: /^Setup/ })).toHaveLength(1);
  });

  it.each([
    ['shared:yes', ['1']],
    ['shared:no', ['2', '4', '5']],
    ['shared:n/a', ['3']],
    ['SHARED:YES', ['1']],
  ])('search %s keeps the matching endpoints', (search, ids) => {
    const table = renderTable(`/endpoints?search=${encodeURIComponent(search)}`);
    const links = bodyRows(table).map(
      (tr) => within(tr).getAllByRole('link')[0]?.getAttribute('href')?.split('/').pop() ?? '',
    );
    expect(links.sort()).toEqual(ids);
  });

  it('searches hostname, resource handle, placement and id, not other text', () => {
    expect(bodyRows(renderTable('/endpoints?search=billing'))).toHaveLength(1);
  });

  it.each([
    ['elb-3', 1],
    ['internal', 1],
    ['external', 4],
    ['red', 0],
  ])('search %s finds %i', (search, count) => {
    const table = renderTable(`/endpoints?search=${search}`);
    if (count === 0) expect(within(table).getByText('No resources found')).toBeInTheDocument();
    else expect(bodyRows(table)).toHaveLength(count);
  });

  it('sorts by a column from the query string', () => {
    const table = renderTable('/endpoints?sort=-hostname');
    const hostnames = bodyRows(table).map((tr) => within(tr).getAllByRole('cell')[1]?.textContent);
    expect(hostnames).toEqual([
      'elb-5.on-berth.localhost',
      'elb-3.on-berth.localhost',
      'app-4.on-berth.localhost',
      'app-2.on-berth.localhost',
      'app-1.on-berth.localhost',
    ]);
  });
});
