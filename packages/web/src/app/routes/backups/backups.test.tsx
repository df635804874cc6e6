import { backupPolicyMessages, requiredMessage, restoreHandle, scopeDenialMessage } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import {
  backupResourceFixture,
  databaseResourceFixture,
  retentionPolicyFixture,
} from '../../../../test/database-fixtures.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { RETENTION_GUIDANCE } from '../../../features/backups/components/retention-policy.tsx';

function backupsPage(items: unknown[], totalCount = items.length, perPage = 40) {
  return { ...collection('backups', items), total_count: totalCount, per_page: perPage };
}

function environmentRoutes(options: { scopes?: string[] } = {}) {
  const readOnly = options.scopes !== undefined;
  const permissions = (options.scopes ?? []).map((scope, index) => ({
    id: `p${index}`,
    scope,
    roleId: 'role-2',
  }));
  const environment = environmentHal({ id: '10', handle: 'production', permissions });
  return {
    ...consoleRoutes({
      roles: readOnly ? [roleHal({ id: 'role-2', name: 'Readers', type: 'platform_user' })] : undefined,
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [environment],
    }),
    'GET /api/accounts/10': () =>
      json(200, {
        ...environment,
        container_count: 0,
        app_container_count: 0,
        database_container_count: 1,
        domain_count: 0,
        total_disk_size: 10,
        total_backup_size: 0.5,
      }),
    'GET /api/accounts/10/vhosts': () => json(200, collection('vhosts', [])),
    'GET /api/accounts/10/databases': () => json(200, collection('databases', [databaseResourceFixture()])),
    'GET /api/accounts/10/backups': () =>
      json(
        200,
        backupsPage(
          [
            backupResourceFixture({ id: '41' }),
            backupResourceFixture({ id: '42', manual: false, final: true, databaseId: null, size: 3 }),
            backupResourceFixture({ id: '43', manual: false }),
          ],
          90,
        ),
      ),
    'GET /api/accounts/10/backup_retention_policies': () =>
      json(
        200,
        collection('backup_retention_policies', [
          retentionPolicyFixture({
            id: '61',
            daily: 30,
            pitr_days: 2,
            created_at: '2026-02-01T00:00:00.000Z',
          }),
          retentionPolicyFixture({ id: '60', daily: 5, created_at: '2026-01-01T00:00:00.000Z' }),
        ]),
      ),
  };
}

async function table() {
  const found = await screen.findByRole('table', { name: 'Backups' });
  await within(found).findByRole('cell', { name: '41' });
  return found;
}

describe('environment Backups tab (spec 2 §2 Backups)', () => {
  it('lists backups with their labels, links and a server pager', async () => {
    signIn();
    const server = mockServer(environmentRoutes());
    renderApp('/environments/10/backups');
    const rows = within(await table()).getAllByRole('row');
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(
      expect.arrayContaining([
        'ID',
        'Database',
        'Type',
        'Size',
        'Region',
        'Created At',
        'Creator',
        'Operation ID',
      ]),
    );
    const first = within(rows[1] as HTMLElement);
    expect(first.getByRole('link', { name: 'orders-db' })).toHaveAttribute('href', '/databases/1');
    expect(first.getByText('Manual')).toBeInTheDocument();
    expect(first.getByText('0.5 GB')).toBeInTheDocument();
    expect(first.getByRole('link', { name: '51' })).toHaveAttribute('href', '/operations/51');
    expect(first.getByRole('link', { name: 'Restore' })).toHaveAttribute('href', '/backups/41/restore');
    // The final backup's database is gone: its handle, no link.
    const orphan = within(rows[2] as HTMLElement);
    expect(orphan.getByText('Final')).toBeInTheDocument();
    expect(orphan.queryByRole('link', { name: 'orders-db' })).not.toBeInTheDocument();
    expect(orphan.getByText('orders-db')).toBeInTheDocument();
    expect(within(rows[3] as HTMLElement).getByText('Auto')).toBeInTheDocument();
    expect(server.calls.some((call) => call.path === '/api/accounts/10/backups?page=1')).toBe(true);

    await userEvent.setup().click(screen.getByRole('button', { name: /next/i }));
    await waitFor(() =>
      expect(server.calls.some((call) => call.path === '/api/accounts/10/backups?page=2')).toBe(true),
    );
  });

  it('lists the backups of deprovisioned databases', async () => {
    signIn();
    const server = mockServer(environmentRoutes());
    renderApp('/environments/10/backups');
    await table();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Backups of deprovisioned databases' }));
    await screen.findByRole('table', { name: 'Backups of deprovisioned databases' });
    expect(server.calls.some((call) => call.path === '/api/accounts/10/backups?page=1&orphaned=true')).toBe(
      true,
    );
  });

  it('deletes a backup after a confirmation (purge), and takes a manual backup', async () => {
    signIn();
    const server = mockServer({
      ...environmentRoutes(),
      'POST /api/backups/41/operations': () =>
        json(201, operationResourceFixture({ id: '70', type: 'purge', status: 'queued' })),
      'POST /api/databases/1/operations': () =>
        json(201, operationResourceFixture({ id: '71', type: 'backup', status: 'queued' })),
      'GET /api/operations/71': () =>
        json(200, operationResourceFixture({ id: '71', type: 'backup', status: 'succeeded' })),
    });
    renderApp('/environments/10/backups');
    const user = userEvent.setup();
    const rows = within(await table()).getAllByRole('row');
    await user.click(within(rows[1] as HTMLElement).getByRole('button', { name: 'Delete backup 41' }));
    expect(server.callsTo('POST', '/api/backups/41/operations')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm delete backup 41' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/backups/41/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/backups/41/operations')[0]?.body).toEqual({ type: 'purge' });

    await user.click(screen.getByRole('button', { name: 'Create Backup' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/databases/1/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/databases/1/operations')[0]?.body).toEqual({ type: 'backup' });
    expect(await screen.findByText('Operation 71: backup DONE')).toBeInTheDocument();
  });

  it('disables Restore, Delete and Edit Policy with the scope tooltip for a read-only user', async () => {
    signIn();
    mockServer(environmentRoutes({ scopes: ['read'] }));
    renderApp('/environments/10/backups');
    const rows = within(await table()).getAllByRole('row');
    const row = within(rows[1] as HTMLElement);
    const restore = row.getByRole('button', { name: 'Restore' });
    expect(restore).toHaveAttribute('aria-disabled', 'true');
    expect(restore).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('deploy', '10'), 'production'),
    );
    const remove = row.getByRole('button', { name: 'Delete backup 41' });
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    expect(remove).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('destroy', '10'), 'production'),
    );
    const edit = await screen.findByRole('button', { name: 'Edit Policy' });
    expect(edit).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('admin', '10'), 'production'),
    );
    expect(screen.getByRole('button', { name: 'Create Backup' })).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('deploy', '10'), 'production'),
    );
  });
});

describe('backup retention policy (spec 2 §5, §9)', () => {
  async function openForm(extra: Record<string, Parameters<typeof mockServer>[0][string]> = {}) {
    signIn();
    const server = mockServer({ ...environmentRoutes(), ...extra });
    renderApp('/environments/10/backups');
    const policy = await screen.findByRole('region', { name: 'Backup retention policy' });
    // The newest policy is in force.
    expect(within(policy).getByText('Daily backups').nextElementSibling?.textContent).toBe('30');
    expect(within(policy).getByText('PITR days').nextElementSibling?.textContent).toBe('2');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Edit Policy' }));
    return { server, form: await screen.findByRole('form', { name: 'Backup retention policy' }) };
  }

  it('shows each schema message', async () => {
    const { form } = await openForm();
    const user = userEvent.setup();
    const set = async (label: string, value: string) => {
      const input = within(form).getByLabelText(label);
      await user.clear(input);
      if (value) await user.type(input, value);
    };
    await set('Daily backups', '0');
    await set('Monthly backups', '-1');
    await set('Yearly backups', '1.5');
    await set('PITR days', '15');
    await user.click(within(form).getByRole('button', { name: 'Save Policy' }));
    expect(await within(form).findByText(backupPolicyMessages.daily)).toBeInTheDocument();
    expect(within(form).getByText(backupPolicyMessages.monthly)).toBeInTheDocument();
    expect(within(form).getByText(backupPolicyMessages.yearly)).toBeInTheDocument();
    expect(within(form).getByText(backupPolicyMessages.pitrDays)).toBeInTheDocument();
    await set('Daily backups', '');
    await user.click(within(form).getByRole('button', { name: 'Save Policy' }));
    expect(await within(form).findByText(backupPolicyMessages.daily)).toBeInTheDocument();
  });

  it('shows the guidance for non-production environments', async () => {
    const { form } = await openForm();
    expect(within(form).getByText(RETENTION_GUIDANCE.nonProduction)).toBeInTheDocument();
  });

  it('warns before a change that loses backups, then saves on confirmation', async () => {
    const { server, form } = await openForm({
      'POST /api/accounts/10/backup_retention_policies': () =>
        json(201, retentionPolicyFixture({ id: '62', daily: 7, pitr_days: 0, make_copy: false })),
    });
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Daily backups'));
    await user.type(within(form).getByLabelText('Daily backups'), '7');
    await user.clear(within(form).getByLabelText('PITR days'));
    await user.type(within(form).getByLabelText('PITR days'), '0');
    await user.click(within(form).getByLabelText('Make a cross-region copy of each backup'));
    await user.click(within(form).getByRole('button', { name: 'Save Policy' }));
    expect(await within(form).findByText(backupPolicyMessages.reducesBackups)).toBeInTheDocument();
    expect(within(form).getByText(backupPolicyMessages.disablesPitr)).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/accounts/10/backup_retention_policies')).toHaveLength(0);
    await user.click(within(form).getByRole('button', { name: 'Save anyway' }));
    await waitFor(() =>
      expect(server.callsTo('POST', '/api/accounts/10/backup_retention_policies')).toHaveLength(1),
    );
    expect(server.callsTo('POST', '/api/accounts/10/backup_retention_policies')[0]?.body).toEqual({
      daily: 7,
      monthly: 12,
      yearly: 6,
      pitr_days: 0,
      make_copy: false,
      keep_final: true,
    });
    expect(await screen.findByText('The backup retention policy was saved.')).toBeInTheDocument();
  });

  it('saves a change that loses nothing without a warning, and shows a server error', async () => {
    const { server, form } = await openForm({
      'POST /api/accounts/10/backup_retention_policies': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'The policy could not be saved')),
    });
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Yearly backups'));
    await user.type(within(form).getByLabelText('Yearly backups'), '7');
    await user.click(within(form).getByRole('button', { name: 'Save Policy' }));
    expect(await within(form).findByText('The policy could not be saved')).toBeInTheDocument();
    expect(server.callsTo('POST', '/api/accounts/10/backup_retention_policies')).toHaveLength(1);
  });
});

describe('restore page (spec 2 §2 restore form)', () => {
  const backup = backupResourceFixture({ id: '41', created_at: '2026-03-04T05:06:07.000Z', size: 12.2 });

  function restoreRoutes() {
    const environments = [
      environmentHal({ id: '10', handle: 'production' }),
      environmentHal({ id: '11', handle: 'staging' }),
    ];
    return {
      ...consoleRoutes({ stacks: [stackHal({ id: '1', isDefault: true })], environments }),
      'GET /api/backups/41': () => json(200, backup),
      'POST /api/backups/41/operations': () =>
        json(201, operationResourceFixture({ id: '80', type: 'restore', status: 'queued' })),
      'GET /api/operations/80': () =>
        json(200, operationResourceFixture({ id: '80', type: 'restore', status: 'queued' })),
    };
  }

  it('defaults the handle, environment and sizes, and sends the restore', async () => {
    signIn();
    const server = mockServer(restoreRoutes());
    const { router } = renderApp('/backups/41/restore');
    const form = await screen.findByRole('form', { name: 'Restore backup' });
    const handle = within(form).getByLabelText('Handle');
    expect(handle).toHaveValue(restoreHandle('orders-db', new Date('2026-03-04T05:06:07.000Z')));
    expect(within(form).getByLabelText('Environment')).toHaveValue('10');
    // A 12.2 GB backup needs at least 13 GB.
    expect(within(form).getByLabelText('Disk Size (GB)')).toHaveValue(13);
    expect(within(form).getByLabelText('Container Size')).toHaveValue('1024');

    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Disk Size (GB)'));
    await user.type(within(form).getByLabelText('Disk Size (GB)'), '10');
    await user.click(within(form).getByRole('button', { name: 'Restore' }));
    expect(await within(form).findByText('Disk size must be at least 13 GB')).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Disk Size (GB)'));
    await user.type(within(form).getByLabelText('Disk Size (GB)'), '20');
    await user.selectOptions(within(form).getByLabelText('Environment'), '11');
    await user.click(within(form).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/backups/41/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/backups/41/operations')[0]?.body).toEqual({
      type: 'restore',
      handle: restoreHandle('orders-db', new Date('2026-03-04T05:06:07.000Z')),
      destination_account_id: '11',
      disk_size: 20,
      containerSize: 1024,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/operations/80'));
  });

  it('checks the handle and shows the server error in the banner', async () => {
    signIn();
    mockServer({
      ...restoreRoutes(),
      'POST /api/backups/41/operations': () =>
        json(422, errorBody(422, 'unprocessable_entity', 'A database with the handle "x" already exists')),
    });
    renderApp('/backups/41/restore');
    const form = await screen.findByRole('form', { name: 'Restore backup' });
    const user = userEvent.setup();
    await user.clear(within(form).getByLabelText('Handle'));
    await user.click(within(form).getByRole('button', { name: 'Restore' }));
    expect(await within(form).findByText(requiredMessage('Handle'))).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Handle'), 'x');
    await user.click(within(form).getByRole('button', { name: 'Restore' }));
    expect(
      await within(form).findByText('A database with the handle "x" already exists'),
    ).toBeInTheDocument();
  });
});
