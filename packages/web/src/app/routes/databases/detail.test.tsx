import { databaseMessages, scopeDenialMessage } from '@berth/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { databaseConsoleServer, databaseServiceFixture } from '../../../../test/database-console.ts';
import type { DatabaseFixture } from '../../../../test/database-fixtures.ts';
import {
  databaseCredentialFixture,
  type databaseImageFixture,
  databaseResourceFixture,
  diskResourceFixture,
} from '../../../../test/database-fixtures.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, type mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, errorBody } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';

const databaseService = () =>
  databaseServiceFixture({
    container_memory_limit_mb: 2048,
    _links: { database: { href: 'http://api.test/databases/1' } },
  });

interface Setup {
  database?: DatabaseFixture;
  image?: Parameters<typeof databaseImageFixture>[0];
  /** The caller's scope on environment 10; an owner when absent. */
  scope?: string;
  dependents?: unknown[];
  routes?: Parameters<typeof mockServer>[0];
}

function databaseConsole({ database = {}, image = {}, scope, dependents = [], routes = {} }: Setup = {}) {
  return databaseConsoleServer({
    scope,
    database,
    image,
    service: databaseService,
    routes: {
      'GET /api/databases/1/dependents': () => json(200, collection('databases', dependents)),
      ...routes,
    },
  });
}

const tabNames = () =>
  within(screen.getByRole('navigation', { name: 'Database tabs' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('database detail (spec 2 §2)', () => {
  it('shows the details card', async () => {
    databaseConsole({
      database: {
        _embedded: {
          disk: diskResourceFixture({
            size: 25,
            provisioned_iops: 4000,
            ebs_volume_type: 'gp3',
            key_bytes: 32,
          }),
          last_operation: null,
        },
      },
    });
    renderApp('/databases/1/cluster');
    const details = await screen.findByRole('region', { name: 'Database details' });
    const value = (label: string) => within(details).getByText(label).nextElementSibling?.textContent;
    await waitFor(() => expect(value('Memory Limit')).toBe('2 GB'));
    expect(value('ID')).toBe('1');
    expect(value('Disk IOPS')).toBe('4000');
    expect(value('Type')).toBe('PostgreSQL 17');
    expect(value('Disk Type')).toBe('gp3');
    expect(value('CPU Share')).toBe('0.5');
    expect(value('Disk Size')).toBe('25 GB');
    expect(value('Backups')).toBe('Enabled');
    expect(value('Disk Encryption')).toBe('AES-256');
    expect(value('Profile')).toBe('m5');
    expect(value('Scaling Recommendations')).toBe('Right Sized');
    expect(within(details).queryByText('Replicates')).not.toBeInTheDocument();
    expect(screen.getByText('Replicas can be created only via the CLI.')).toBeInTheDocument();
  });

  it('links a replica to its primary', async () => {
    databaseConsole({
      database: { _links: { initialize_from: { href: 'http://api.test/databases/7' } } },
      routes: {
        'GET /api/databases/7': () =>
          json(200, databaseResourceFixture({ id: '7', handle: 'orders-primary' })),
      },
    });
    renderApp('/databases/1/cluster');
    const details = await screen.findByRole('region', { name: 'Database details' });
    const link = await within(details).findByRole('link', { name: 'orders-primary' });
    expect(link).toHaveAttribute('href', '/databases/7');
  });

  it('notices an end-of-life version with the date active maintenance ends', async () => {
    databaseConsole({ image: { eol_at: new Date(Date.now() - 10 * 86_400_000).toISOString() } });
    renderApp('/databases/1/cluster');
    expect(await screen.findByText(/Active maintenance ends on/)).toBeInTheDocument();
  });

  it('says a version past its grace period is deprecated', async () => {
    databaseConsole({ image: { eol_at: '2020-01-01T00:00:00.000Z' } });
    renderApp('/databases/1/cluster');
    expect(await screen.findByText(/is deprecated and no longer maintained/)).toBeInTheDocument();
  });

  it('shows Recovery only for images with PITR support', async () => {
    databaseConsole();
    renderApp('/databases/1/cluster');
    await screen.findByRole('navigation', { name: 'Database tabs' });
    expect(tabNames()).toEqual([
      'Metrics',
      'Scale',
      'Endpoints',
      'Activity',
      'Backups',
      'Cluster',
      'Connection URLs',
      'Recovery',
      'Settings',
    ]);
  });

  it('hides Recovery for an image without PITR, and its path is not found', async () => {
    databaseConsole({ image: { pitr_supported: false } });
    const { router } = renderApp('/databases/1/cluster');
    await screen.findByRole('navigation', { name: 'Database tabs' });
    await waitFor(() => expect(tabNames()).not.toContain('Recovery'));
    await act(() => router.navigate('/databases/1/recovery'));
    expect(await screen.findByText(/not found/i)).toBeInTheDocument();
  });
});

describe('database Connection URLs (spec 2 §6)', () => {
  it('lists the credentials masked, copies the real URL without revealing it, and reveals on demand', async () => {
    databaseConsole({
      routes: {
        'GET /api/databases/1/database_credentials': () =>
          json(200, collection('database_credentials', [databaseCredentialFixture()])),
      },
    });
    renderApp('/databases/1/credentials');
    const url = 'postgresql://berth:s3cret-password@db-production-1.berth.internal:5432/db';
    // issue 41: the password is masked until Reveal.
    expect(
      await screen.findByText('postgresql://berth:•••@db-production-1.berth.internal:5432/db'),
    ).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('s3cret-password');
    const user = userEvent.setup();
    // userEvent stubs the clipboard: what was written reads back, and the page still hides it.
    await user.click(screen.getByRole('button', { name: 'Copy postgresql connection URL' }));
    expect(await navigator.clipboard.readText()).toBe(url);
    expect(await screen.findByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    expect(document.body.innerHTML).not.toContain('s3cret-password');
    await user.click(screen.getByRole('button', { name: 'Reveal postgresql connection URL' }));
    expect(screen.getByText(url)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide postgresql connection URL' }));
    expect(document.body.innerHTML).not.toContain('s3cret-password');
  });

  it('asks nothing and says why without sensitive', async () => {
    const server = databaseConsole({ scope: 'read' });
    renderApp('/databases/1/credentials');
    expect(await screen.findByText(scopeDenialMessage('sensitive', '10'))).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/databases/1/database_credentials')).toHaveLength(0);
  });
});

describe('database Scale tab (spec 2 §5)', () => {
  it('checks the disk before sending, then posts scale', async () => {
    const server = databaseConsole({
      routes: {
        'POST /api/databases/1/operations': () =>
          json(201, operationResourceFixture({ id: '90', type: 'scale', resource_type: 'database' })),
        'GET /api/operations/90': () =>
          json(200, operationResourceFixture({ id: '90', type: 'scale', resource_type: 'database' })),
      },
    });
    renderApp('/databases/1/scale');
    const user = userEvent.setup();
    const disk = await screen.findByLabelText('Disk Size (GB)');
    const iops = screen.getByLabelText('Disk IOPS');
    const save = screen.getByRole('button', { name: 'Scale Database' });
    expect(save).toBeDisabled();

    await user.clear(disk);
    await user.type(disk, '8');
    expect(screen.getByRole('alert')).toHaveTextContent(databaseMessages.diskTooSmall);
    await user.tab();
    // The input clamps to the minimum on leaving it.
    expect(disk).toHaveValue(10);

    await user.clear(iops);
    await user.type(iops, '17000');
    expect(screen.getByRole('alert')).toHaveTextContent(databaseMessages.iopsTooHigh);
    await user.clear(iops);
    await user.type(iops, '6000');
    expect(screen.getByRole('alert')).toHaveTextContent(databaseMessages.iopsNeedDisk);
    await user.clear(iops);
    await user.type(iops, '3000');

    await user.clear(disk);
    await user.type(disk, '20');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(save);
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({
      type: 'scale',
      id: '1',
      container_size: 2048,
      instance_profile: 'm5',
      disk_size: 20,
      provisioned_iops: 3000,
    });
    expect(await screen.findByText('Operation 90: scale QUEUED')).toBeInTheDocument();
  });

  it('refuses to shrink the disk and shows a server refusal', async () => {
    databaseConsole({
      database: { _embedded: { disk: diskResourceFixture({ size: 30 }), last_operation: null } },
      routes: {
        'POST /api/databases/1/operations': () =>
          json(422, errorBody(422, 'unprocessable_entity', databaseMessages.diskOncePerDay)),
      },
    });
    renderApp('/databases/1/scale');
    const user = userEvent.setup();
    const disk = await screen.findByLabelText('Disk Size (GB)');
    await user.clear(disk);
    await user.type(disk, '20');
    expect(screen.getByRole('alert')).toHaveTextContent(databaseMessages.diskShrink);
    await user.clear(disk);
    await user.type(disk, '40');
    await user.click(screen.getByRole('button', { name: 'Scale Database' }));
    expect(await screen.findByText(databaseMessages.diskOncePerDay)).toBeInTheDocument();
  });

  it('disables Scale without the observability scope', async () => {
    databaseConsole({ scope: 'read' });
    renderApp('/databases/1/scale');
    const save = await screen.findByRole('button', { name: 'Scale Database' });
    expect(save).toHaveAttribute('aria-disabled', 'true');
    expect(save).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('observability', '10'), 'production'),
    );
  });
});

describe('database Settings (spec 2 §2, §5)', () => {
  it('renames and switches backups with PUT', async () => {
    const server = databaseConsole({
      routes: {
        'PUT /api/databases/1': (call) => json(200, databaseResourceFixture(call.body as DatabaseFixture)),
      },
    });
    renderApp('/databases/1/settings');
    const user = userEvent.setup();
    const handle = await screen.findByLabelText('New Handle');
    await user.clear(handle);
    await user.type(handle, 'orders-main');
    await user.click(within(screen.getByRole('form', { name: 'Rename Database' })).getByRole('button'));
    await waitFor(() => expect(server.callsTo('PUT', '/api/databases/1')).toHaveLength(1));
    expect(server.callsTo('PUT', '/api/databases/1')[0]?.body).toEqual({ handle: 'orders-main' });

    await user.click(screen.getByLabelText('Enable backups'));
    await waitFor(() => expect(server.callsTo('PUT', '/api/databases/1')).toHaveLength(2));
    expect(server.callsTo('PUT', '/api/databases/1')[1]?.body).toEqual({ enable_backups: false });

    await user.click(screen.getByLabelText('Enable point-in-time recovery backups'));
    await waitFor(() => expect(server.callsTo('PUT', '/api/databases/1')).toHaveLength(3));
    expect(server.callsTo('PUT', '/api/databases/1')[2]?.body).toEqual({ enable_pitr: true });
  });

  it('restarts, and restarts with disk backup only once acknowledged', async () => {
    const server = databaseConsole({
      routes: {
        'POST /api/databases/1/operations': (call) =>
          json(
            201,
            operationResourceFixture({
              id: '91',
              type: (call.body as { type: string }).type,
              resource_type: 'database',
            }),
          ),
        'GET /api/operations/91': () =>
          json(200, operationResourceFixture({ id: '91', resource_type: 'database' })),
      },
    });
    renderApp('/databases/1/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Restart Database' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({
      type: 'restart',
      id: '1',
    });

    const recreate = screen.getByRole('button', { name: 'Restart with Disk Backup and Restore' });
    expect(recreate).toBeDisabled();
    await user.click(screen.getByLabelText(/I understand the database is unavailable/));
    await user.click(recreate);
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/operations')).toHaveLength(2));
    expect(server.callsTo('POST', '/api/databases/1/operations')[1]?.body).toEqual({
      type: 'restart_recreate',
      id: '1',
    });
  });

  it('deprovisions only once the handle is typed exactly', async () => {
    const server = databaseConsole({
      routes: {
        'POST /api/databases/1/operations': () =>
          json(201, operationResourceFixture({ id: '92', type: 'deprovision', resource_type: 'database' })),
        'GET /api/operations/92': () =>
          json(200, operationResourceFixture({ id: '92', type: 'deprovision', resource_type: 'database' })),
      },
    });
    renderApp('/databases/1/settings');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Deprovision Database' });
    const field = screen.getByLabelText('Type orders-db to confirm');
    await user.type(field, 'orders-d');
    expect(button).toBeDisabled();
    await user.type(field, 'b');
    expect(button).toBeEnabled();
    await user.click(button);
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({ type: 'deprovision' });
    expect(await screen.findByText('Operation 92: deprovision QUEUED')).toBeInTheDocument();
  });

  it('refuses to deprovision while replicas depend on it', async () => {
    databaseConsole({
      dependents: [
        databaseResourceFixture({
          id: '2',
          handle: 'orders-replica',
          _links: { initialize_from: { href: 'x/1' } },
        }),
      ],
    });
    renderApp('/databases/1/settings');
    expect(await screen.findByText(databaseMessages.dependents(['orders-replica']))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deprovision Database' })).toBeDisabled();
    expect(screen.getByLabelText('Type orders-db to confirm')).toBeDisabled();
  });

  it('unlinks a replica once its handle is typed', async () => {
    const server = databaseConsole({
      database: { _links: { initialize_from: { href: 'http://api.test/databases/7' } } },
      routes: {
        'GET /api/databases/7': () =>
          json(200, databaseResourceFixture({ id: '7', handle: 'orders-primary' })),
        'POST /api/databases/1/unlink': () => noContent(),
      },
    });
    renderApp('/databases/1/settings');
    const user = userEvent.setup();
    const region = await screen.findByRole('region', { name: 'Unlink Replica' });
    await user.type(within(region).getByLabelText('Type orders-db to confirm'), 'orders-db');
    await user.click(within(region).getByRole('button', { name: 'Unlink Replica' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/unlink')).toHaveLength(1));
  });

  it('disables every write without the scopes, with the spec tooltip', async () => {
    databaseConsole({ scope: 'read' });
    renderApp('/databases/1/settings');
    const deprovision = await screen.findByRole('button', { name: 'Deprovision Database' });
    expect(deprovision).toHaveAttribute('aria-disabled', 'true');
    expect(deprovision).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('destroy', '10'), 'production'),
    );
    expect(screen.getByRole('button', { name: 'Restart Database' })).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('observability', '10'), 'production'),
    );
    expect(
      within(screen.getByRole('form', { name: 'Rename Database' })).getByRole('button'),
    ).toHaveAccessibleDescription(deniedDescription(scopeDenialMessage('deploy', '10'), 'production'));
    expect(screen.getByLabelText('Enable backups')).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('database Recovery (spec 2 §4 PITR flow)', () => {
  const pitrDatabase: DatabaseFixture = { enable_pitr: true };

  it('checks the target format, restores, provisions the new database and opens it', async () => {
    let restoreDone = false;
    const server = databaseConsole({
      database: pitrDatabase,
      routes: {
        'POST /api/databases/1/operations': () => {
          restoreDone = true;
          return json(
            201,
            operationResourceFixture({ id: '93', type: 'pitr_restore', resource_type: 'database' }),
          );
        },
        'GET /api/operations/93': () =>
          json(
            200,
            operationResourceFixture({
              id: '93',
              type: 'pitr_restore',
              status: 'succeeded',
              resource_type: 'database',
            }),
          ),
        'GET /api/accounts/10/databases': () =>
          json(
            200,
            collection('databases', [
              databaseResourceFixture(),
              databaseResourceFixture({
                id: '5',
                handle: 'orders-restored',
                status: 'pending',
                provisioned: false,
              }),
            ]),
          ),
        'POST /api/databases/5/operations': () =>
          json(
            201,
            operationResourceFixture({
              id: '94',
              type: 'provision',
              resource_type: 'database',
              resource_id: '5',
            }),
          ),
        'GET /api/databases/5': () =>
          json(200, databaseResourceFixture({ id: '5', handle: 'orders-restored', status: 'provisioning' })),
        'GET /api/databases/5/operations': () => json(200, collection('operations', [])),
        'GET /api/services/21/releases/': () => json(200, collection('releases', [])),
      },
    });
    const { router } = renderApp('/databases/1/recovery');
    const user = userEvent.setup();
    const handle = await screen.findByLabelText('New Database Handle');
    await user.clear(handle);
    await user.type(handle, 'orders-restored');
    await user.selectOptions(screen.getByLabelText('Recover To'), 'time');
    const target = screen.getByLabelText('Target Time (UTC)');
    await user.clear(target);
    await user.type(target, '2026-02-30 10:00:00');
    await user.click(screen.getByRole('button', { name: 'Restore to New Database' }));
    expect(await screen.findByText(databaseMessages.pitrTargetFormat)).toBeInTheDocument();
    expect(restoreDone).toBe(false);

    await user.clear(target);
    await user.type(target, '2026-02-01 10:00:00');
    await user.click(screen.getByRole('button', { name: 'Restore to New Database' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/databases/5'));
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({
      type: 'pitr_restore',
      handle: 'orders-restored',
      recovery_target_type: 'time',
      recovery_target: '2026-02-01 10:00:00',
    });
    expect(server.callsTo('POST', '/api/databases/5/operations')[0]?.body).toEqual({
      type: 'provision',
      recovery_target_type: 'time',
      recovery_target: '2026-02-01 10:00:00',
    });
  });

  it('fails with "Operation {id} did not succeed" when the restore fails', async () => {
    const server = databaseConsole({
      database: pitrDatabase,
      routes: {
        'POST /api/databases/1/operations': () =>
          json(201, operationResourceFixture({ id: '95', type: 'pitr_restore', resource_type: 'database' })),
        'GET /api/operations/95': () =>
          json(
            200,
            operationResourceFixture({
              id: '95',
              type: 'pitr_restore',
              status: 'failed',
              resource_type: 'database',
            }),
          ),
      },
    });
    renderApp('/databases/1/recovery');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Restore to New Database' }));
    expect(await screen.findByText(databaseMessages.operationDidNotSucceed('95'))).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({
      type: 'pitr_restore',
      handle: 'orders-db-pitr',
      recovery_target_type: 'latest',
    });
    expect(server.callsTo('GET', '/api/accounts/10/databases')).toHaveLength(0);
  });
});

describe('a database its runtime says cannot run (issue 39)', () => {
  const why =
    'Node worker-2 is down (the manager sees it down: heartbeat failure): the data of main-db is on it; restore a backup to bring it back on another node';

  it('shows Unavailable with the reason and the way to restore from a backup', async () => {
    databaseConsole({ database: { status_problem: why } });
    renderApp('/databases/1/cluster');
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('Unavailable')).toBeTruthy();
    expect(within(banner).getByText(why)).toBeTruthy();
    const restore = within(banner).getByRole('link', { name: 'Restore from a backup' });
    expect(restore.getAttribute('href')).toBe('/databases/1/backups');
    expect(screen.getByText('Unavailable', { selector: '.badge' })).toBeTruthy();
    await userEvent.click(restore);
    expect(await screen.findByRole('link', { name: 'Backups', current: 'page' })).toBeTruthy();
  });

  it('shows neither the mark nor the banner when nothing stands in its way', async () => {
    databaseConsole({ database: { status_problem: null } });
    renderApp('/databases/1/cluster');
    await screen.findByRole('region', { name: 'Database details' });
    expect(screen.queryByText('Unavailable')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Restore from a backup' })).toBeNull();
  });
});
