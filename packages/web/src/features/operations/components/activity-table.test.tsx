import { type Actor, activitySince, type OperationResource } from '@berth/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, TEST_CONFIG, tokenHal } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { ActorProvider } from '../../../lib/actor.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';
import { ActivityTable, gitRefRunning, rerunWarning } from './activity-table.tsx';

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const LIST = '/organizations/org-1/operations';
// Only Date is faked, so the window the console sends is known while react-query's timers run as usual.
const NOW = Date.parse('2026-11-25T09:30:45Z');
const SINCE = new URLSearchParams({ since: activitySince(NOW) }).toString();
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

/** An operation of environment 10 by Ada, created now (the faked clock), on app 7 `web` by default. */
function operationHal({
  id,
  type,
  status,
  resourceType = 'app',
  resourceId = '7',
  handle = 'web',
  gitRef = 'main',
  createdAt = new Date().toISOString(),
}: {
  id: string;
  type: string;
  status: string;
  resourceType?: 'app' | 'service';
  resourceId?: string;
  handle?: string;
  gitRef?: string | null;
  createdAt?: string;
}): OperationResource {
  return operationResourceFixture({
    id,
    type,
    status,
    git_ref: gitRef,
    user_name: 'Ada Lovelace',
    user_email: 'ada@example.com',
    resource_type: resourceType,
    resource_id: resourceId,
    resource_handle: handle,
    created_at: createdAt,
    _links: { account: { href: api('/accounts/10') } },
  });
}

const OWNER: Actor = { roleTypes: ['owner'], permissions: [] };
const READER: Actor = { roleTypes: ['platform_user'], permissions: [{ environmentId: '10', scope: 'read' }] };

function renderActivity(actor: Actor, path = '/activity') {
  sessionStore.signIn(fromTokenResource(tokenHal()));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/activity',
        // The routes pass the real link (app/routes/operations/operation-resource-link.test.tsx covers it).
        element: (
          <ActivityTable listPath={LIST} resourceLink={(operation) => <i>{operation.resourceId}</i>} />
        ),
      },
      { path: '/operations/:id', element: <p>operation page</p> },
    ],
    { initialEntries: [path] },
  );
  // The shell provides the caller's actor; here the test does.
  render(
    <QueryClientProvider client={queryClient}>
      <ActorProvider actor={actor}>
        <RouterProvider router={router} />
      </ActorProvider>
    </QueryClientProvider>,
  );
  return router;
}

const ROWS = [
  operationHal({ id: '1', type: 'deploy', status: 'failed' }),
  operationHal({ id: '2', type: 'deploy', status: 'succeeded' }),
  operationHal({ id: '3', type: 'configure', status: 'succeeded' }),
  operationHal({ id: '4', type: 'restart', status: 'succeeded' }),
  operationHal({ id: '5', type: 'deploy', status: 'running' }),
  operationHal({ id: '6', type: 'scale', status: 'succeeded', resourceType: 'service', resourceId: '9' }),
  operationHal({ id: '7', type: 'scale', status: 'failed', resourceType: 'service', resourceId: '9' }),
];

function row(operationId: string) {
  const link = screen
    .getAllByRole('link')
    .find((candidate) => candidate.getAttribute('href') === `/operations/${operationId}`);
  const tr = link?.closest('tr');
  if (!tr) throw new Error(`no row for operation ${operationId}`);
  return within(tr);
}

describe('ActivityTable resource cell', () => {
  it("shows each row's resource as the route's resourceLink renders it", async () => {
    mockServer({ [`GET /api${LIST}?page=1&${SINCE}`]: () => json(200, collection('operations', ROWS)) });
    renderActivity(OWNER);
    await screen.findByRole('cell', { name: 'RUNNING' });
    expect(row('6').getByText('9').tagName).toBe('I');
    expect(row('1').getByText('7').tagName).toBe('I');
  });
});

describe('ActivityTable Re-run rules (spec 3 §2)', () => {
  it('offers Re-run on failed rows and on succeeded app deploy and configure rows only', async () => {
    mockServer({ [`GET /api${LIST}?page=1&${SINCE}`]: () => json(200, collection('operations', ROWS)) });
    renderActivity(OWNER);
    await screen.findByRole('cell', { name: 'RUNNING' });
    const hasRerun = (id: string) => row(id).queryByRole('button', { name: /^Re-run/ }) !== null;
    expect(['1', '2', '3', '4', '5', '6', '7'].map(hasRerun)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it('disables Re-run without the scope, with the spec tooltip', async () => {
    const server = mockServer({
      [`GET /api${LIST}?page=1&${SINCE}`]: () => json(200, collection('operations', ROWS.slice(0, 1))),
    });
    renderActivity(READER);
    const button = await screen.findByRole('button', { name: 'Re-run deploy of web' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      deniedDescription('You do not have "deploy" permissions for this environment (id:10)'),
    );
    await userEvent.click(button);
    expect(server.callsTo('POST', '/api/apps/7/operations')).toHaveLength(0);
  });

  it('posts the same operation again and opens it', async () => {
    const server = mockServer({
      [`GET /api${LIST}?page=1&${SINCE}`]: () => json(200, collection('operations', ROWS)),
      'POST /api/apps/7/operations': () =>
        json(201, operationHal({ id: '42', type: 'deploy', status: 'queued' })),
      'POST /api/services/9/operations': () =>
        json(201, operationHal({ id: '43', type: 'scale', status: 'queued', resourceType: 'service' })),
    });
    const router = renderActivity(OWNER);
    await screen.findByRole('cell', { name: 'RUNNING' });
    await userEvent.click(row('1').getByRole('button', { name: /^Re-run/ }));
    // Nothing runs before it is confirmed, and the confirmation says what will run (issue 20).
    expect(server.callsTo('POST', '/api/apps/7/operations')).toHaveLength(0);
    expect(row('1').getByText(/^Deploys main to web again\./)).toBeInTheDocument();
    await userEvent.click(row('1').getByRole('button', { name: /^Confirm re-run/ }));
    expect(server.callsTo('POST', '/api/apps/7/operations')[0]?.body).toEqual({
      type: 'deploy',
      git_ref: 'main',
    });
    await screen.findByText('operation page');
    expect(router.state.location.pathname).toBe('/operations/42');
  });

  it('sends the filters from the query string, all meaning none, and the 2-week window as since', async () => {
    const server = mockServer({
      [`GET /api${LIST}?page=2&operation_type=deploy&operation_status=failed&${SINCE}`]: () =>
        json(200, {
          ...collection('operations', [
            ROWS[0],
            operationHal({ id: '8', type: 'deploy', status: 'failed', gitRef: 'older' }),
          ]),
          per_page: 40,
          total_count: 82,
        }),
    });
    renderActivity(OWNER, '/activity?page=2&resource_type=all&operation_type=deploy&operation_status=failed');
    expect(await screen.findAllByRole('cell', { name: 'FAILED' })).toHaveLength(2);
    expect(server.calls[0]?.path).toBe(
      `/api${LIST}?page=2&operation_type=deploy&operation_status=failed&since=2026-11-11T09%3A30%3A00.000Z`,
    );
    // The server already applied the window before paging: every row it answers is shown.
    expect(
      screen.getAllByRole('link').filter((link) => link.getAttribute('href') === '/operations/8'),
    ).not.toHaveLength(0);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByText('Showing operations from the last 2 weeks.')).toBeInTheDocument();
  });

  it('moves Next from the cursor of the next link, shows an estimated count as N+, and jumps back by number', async () => {
    const nextHref = api(`${LIST}?page=2&per_page=40&after=1795000000000.77`);
    const server = mockServer({
      [`GET /api${LIST}?page=1&${SINCE}`]: () =>
        json(200, {
          ...collection('operations', ROWS),
          _links: { self: { href: api(LIST) }, next: { href: nextHref } },
          per_page: 40,
          total_count: 10000,
          total_count_estimated: true,
        }),
      [`GET /api${LIST}?page=2&${SINCE}&after=1795000000000.77`]: () =>
        json(200, {
          ...collection('operations', [operationHal({ id: '77', type: 'restart', status: 'succeeded' })]),
          per_page: 40,
          total_count: 10001,
          total_count_estimated: true,
        }),
    });
    const router = renderActivity(OWNER);
    await screen.findByRole('cell', { name: 'RUNNING' });
    expect(screen.getByText('Page 1 of 250+')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=2&after=1795000000000.77');
    await screen.findByText('Page 2 of 251+');
    expect(server.calls.map((call) => call.path)).toContain(
      `/api${LIST}?page=2&${SINCE}&after=1795000000000.77`,
    );
    // Previous asks by number: the cursor goes.
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(router.state.location.search).toBe('?page=1');
  });

  it("never sends the page on screen's cursor for a page it is not (Next again while the next loads)", async () => {
    let answerPageTwo: (() => void) | null = null;
    mockServer({
      [`GET /api${LIST}?page=1&${SINCE}`]: () =>
        json(200, {
          ...collection('operations', ROWS),
          _links: {
            self: { href: api(LIST) },
            next: { href: api(`${LIST}?page=2&per_page=40&after=1795000000000.77`) },
          },
          per_page: 40,
          total_count: 120,
        }),
      [`GET /api${LIST}?page=2&${SINCE}&after=1795000000000.77`]: () =>
        new Promise<Response>((resolve) => {
          answerPageTwo = () =>
            resolve(json(200, { ...collection('operations', ROWS), per_page: 40, total_count: 120 }));
        }),
      [`GET /api${LIST}?page=3&${SINCE}`]: () =>
        json(200, { ...collection('operations', ROWS), per_page: 40, total_count: 120 }),
    });
    const router = renderActivity(OWNER);
    await screen.findByText('Page 1 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=2&after=1795000000000.77');
    // Page 1's rows are still shown while page 2 loads: Next now goes by number, not by page 1's cursor.
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(router.state.location.search).toBe('?page=3');
    (answerPageTwo as (() => void) | null)?.();
  });

  it('keeps Previous by number', async () => {
    mockServer({
      [`GET /api${LIST}?page=2&${SINCE}`]: () =>
        json(200, { ...collection('operations', ROWS), per_page: 40, total_count: 120 }),
      [`GET /api${LIST}?page=1&${SINCE}`]: () =>
        json(200, { ...collection('operations', ROWS), per_page: 40, total_count: 120 }),
    });
    const router = renderActivity(OWNER, '/activity?page=2');
    await screen.findByText('Page 2 of 3');
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(router.state.location.search).toBe('?page=1');
  });
});

describe('ActivityTable filters offer databases and backups (core operation catalog)', () => {
  it('lists the Database and Backup resource types and their operation types, and sends the choice', async () => {
    const server = mockServer({
      [`GET /api${LIST}?page=1&${SINCE}`]: () => json(200, collection('operations', ROWS)),
      [`GET /api${LIST}?page=1&resource_type=database&${SINCE}`]: () =>
        json(200, collection('operations', [])),
      [`GET /api${LIST}?page=1&resource_type=database&operation_type=pitr_restore&${SINCE}`]: () =>
        json(200, collection('operations', [])),
    });
    const router = renderActivity(OWNER);
    await screen.findByRole('cell', { name: 'RUNNING' });
    const resourceType = screen.getByRole('combobox', { name: 'Resource type' });
    const optionsOf = (select: HTMLElement) =>
      within(select)
        .getAllByRole('option')
        .map((option) => option.getAttribute('value'));
    expect(optionsOf(resourceType)).toEqual(expect.arrayContaining(['database', 'backup', 'account']));
    // The options read as people name things (issue 20); the values stay the API's.
    expect(within(resourceType).getByRole('option', { name: 'Endpoint' })).toHaveValue('vhost');
    expect(within(resourceType).getByRole('option', { name: 'Environment' })).toHaveValue('account');
    const status = screen.getByRole('combobox', { name: 'Status' });
    expect(within(status).getByRole('option', { name: 'DONE' })).toHaveValue('succeeded');
    const operationType = screen.getByRole('combobox', { name: 'Operation type' });
    expect(optionsOf(operationType)).toEqual(
      expect.arrayContaining([
        'backup',
        'pitr_restore',
        'replicate',
        'configure_backup_policy',
        'purge',
        'restore',
        // Recorded by Berth, not posted: a Swarm node that stopped answering.
        'node_lost',
      ]),
    );
    const user = userEvent.setup();
    await user.selectOptions(resourceType, 'database');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Operation type' }), 'pitr_restore');
    expect(router.state.location.search).toBe('?resource_type=database&operation_type=pitr_restore');
    await vi.waitFor(() =>
      expect(server.calls.map((call) => call.path)).toContain(
        `/api${LIST}?page=1&resource_type=database&operation_type=pitr_restore&${SINCE}`,
      ),
    );
  });
});

describe('what a re-run says it will do (issue 20)', () => {
  const base = operationHal({ id: '5', type: 'deploy', status: 'failed' });
  it('names the ref of a deploy, and whether it failed or may roll back', () => {
    const failed = fromOperationResource({ ...base, git_ref: 'simfail-v1' });
    expect(rerunWarning(failed)).toBe(
      `Deploys simfail-v1 to ${failed.resourceHandle} again. It failed last time.`,
    );
    const succeeded = fromOperationResource({ ...base, status: 'succeeded', git_ref: 'v1' });
    expect(rerunWarning(succeeded)).toBe(
      `Deploys v1 to ${succeeded.resourceHandle} again. If a later deploy runs now, this rolls it back.`,
    );
    // Once the app is read, the warning names what it runs now.
    expect(rerunWarning(failed, 'main')).toBe(
      `Deploys simfail-v1 to ${failed.resourceHandle} again. It failed last time. main is running now; a success would replace it.`,
    );
    expect(rerunWarning(succeeded, 'main')).toBe(
      `Deploys v1 to ${succeeded.resourceHandle} again. main is running now: this rolls it back to v1.`,
    );
    expect(rerunWarning(succeeded, 'v1')).toBe(
      `Deploys v1 to ${succeeded.resourceHandle} again. v1 is what runs now.`,
    );
    expect(rerunWarning(succeeded, null)).toBe(`Deploys v1 to ${succeeded.resourceHandle} again.`);
    // What the app runs: a git ref, nothing yet, or an image without one (then not named).
    expect(gitRefRunning({ currentImage: { dockerRepo: 'r', dockerRef: 'abc', gitRef: 'main' } })).toBe(
      'main',
    );
    expect(gitRefRunning({ currentImage: null })).toBeNull();
    expect(
      gitRefRunning({ currentImage: { dockerRepo: 'nginx', dockerRef: '1.27', gitRef: null } }),
    ).toBeUndefined();
    expect(rerunWarning(succeeded, undefined)).toBe(
      `Deploys v1 to ${succeeded.resourceHandle} again. If a later deploy runs now, this rolls it back.`,
    );
    const restart = fromOperationResource({ ...base, type: 'restart' });
    expect(rerunWarning(restart)).toBe(
      `Restarts ${restart.resourceHandle}: its containers stop and start again.`,
    );
  });
});
