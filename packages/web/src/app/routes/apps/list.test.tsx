import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';

const LIST = 'GET /api/apps?per_page=5000&no_embed=true';

/** An app as the bare list (`no_embed=true`) carries it: no services, image or operations. */
function bareAppHal(id: string, handle: string, createdAt: string) {
  return appResourceFixture({ id, handle, created_at: createdAt });
}

function appsConsole(
  searches: Record<string, string[]> = {},
  answers: Parameters<typeof mockServer>[0] = {},
) {
  signIn();
  return mockServer({
    ...consoleRoutes({ environments: [environmentHal({ id: '10', handle: 'production' })] }),
    [LIST]: () =>
      json(
        200,
        collection('apps', [
          bareAppHal('1', 'shop', '2026-01-01T00:00:00.000Z'),
          bareAppHal('2', 'blog', '2026-02-01T00:00:00.000Z'),
        ]),
      ),
    ...Object.fromEntries(
      Object.entries(searches).map(([text, ids]) => [
        `${LIST}&search=${encodeURIComponent(text)}`,
        () =>
          json(
            200,
            collection(
              'apps',
              ids.map((id) => bareAppHal(id, `app-${id}`, '2026-01-01T00:00:00Z')),
            ),
          ),
      ]),
    ),
    ...answers,
  });
}

const handles = () =>
  within(screen.getByRole('table', { name: 'Apps' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the Apps list (spec 3 §2)', () => {
  it('lists the organization’s apps from the bare list, newest first, with their environment', async () => {
    appsConsole();
    renderApp('/apps');
    await screen.findByRole('link', { name: 'blog' });
    expect(handles()).toEqual(['blog', 'shop']);
    expect(within(screen.getByRole('table', { name: 'Apps' })).getAllByText('production')).toHaveLength(2);
  });

  it('shows the rows before the services list, with a placeholder until it comes, and 0 when a list fails', async () => {
    let answerApps: (response: Response) => void = () => {};
    let answerServices: (response: Response) => void = () => {};
    const server = appsConsole(
      {},
      {
        [LIST]: () =>
          new Promise<Response>((resolve) => {
            answerApps = resolve;
          }),
        'GET /api/services': () =>
          new Promise<Response>((resolve) => {
            answerServices = resolve;
          }),
        'GET /api/costs/org-1/apps': () => json(500, errorBody(500, 'internal', 'Costs are down')),
      },
    );
    renderApp('/apps');
    await waitFor(() => expect(server.callsTo('GET', '/api/apps')).toHaveLength(1));
    // The lists that only fill columns wait for the rows' own list.
    expect(server.callsTo('GET', '/api/services')).toHaveLength(0);
    expect(server.callsTo('GET', '/api/costs/org-1/apps')).toHaveLength(0);
    answerApps(json(200, collection('apps', [bareAppHal('7', 'shop', '2026-01-01T00:00:00.000Z')])));
    const table = await screen.findByRole('table', { name: 'Apps' });
    await within(table).findByRole('link', { name: 'shop' });
    await waitFor(() => expect(server.callsTo('GET', '/api/services')).toHaveLength(1));
    expect(within(table).getAllByRole('status', { name: 'Loading' }).length).toBeGreaterThanOrEqual(1);

    answerServices(
      json(200, collection('services', [serviceResourceFixture({ appId: '7', environmentId: '10' })])),
    );
    const shop = (await within(table).findByRole('link', { name: 'shop' })).closest('tr') as HTMLElement;
    await waitFor(() => expect(within(table).queryAllByRole('status', { name: 'Loading' })).toHaveLength(0));
    // shop has its one service; the failed costs read $0.00 rather than loading for ever.
    expect(within(shop).getByRole('cell', { name: '1' })).toBeInTheDocument();
    expect(within(shop).getByText('$0.00')).toBeInTheDocument();
  });

  it('finds an app by its git ref, which only the server can match without embeds', async () => {
    const server = appsConsole({ 'release-7': ['1'] });
    renderApp('/apps?search=release-7');
    await screen.findByRole('link', { name: 'shop' });
    expect(handles()).toEqual(['shop']);
    expect(server.calls.map((call) => call.path)).toContain(
      '/api/apps?per_page=5000&no_embed=true&search=release-7',
    );
  });

  it('asks the server again as the user types a last operation’s user', async () => {
    appsConsole({ grace: ['2'] });
    renderApp('/apps');
    await screen.findByRole('link', { name: 'blog' });
    await userEvent.type(screen.getByRole('searchbox'), 'grace');
    // Until the server answers, no row's own fields hold "grace"; then its match is shown.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'shop' })).not.toBeInTheDocument());
    await screen.findByRole('link', { name: 'blog' });
    expect(handles()).toEqual(['blog']);
  });
});

describe('the Apps list says why an app failed (issue 41)', () => {
  it('shows the reason under the handle and links the operation, from one paged list for the organization', async () => {
    const failures = '/api/organizations/org-1/operations';
    const address = (path: string) => `${TEST_CONFIG.apiUrl}${path.slice('/api'.length)}`;
    const failed = (id: string, appId: string, reason: string) =>
      operationResourceFixture({
        id,
        status: 'failed',
        resource_type: 'app',
        resource_id: appId,
        failure_reason: reason,
      });
    const { calls } = appsConsole(
      {},
      {
        // Other screens' activity lists share the address: answer by what is asked.
        [`GET ${failures}`]: (call) =>
          call.path.includes('after=x')
            ? json(200, collection('operations', [failed('42', '2', 'Out of memory')]))
            : call.path.includes('newest_per_resource=true')
              ? json(200, {
                  ...collection('operations', [failed('41', '1', "fatal: couldn't find remote ref nope")]),
                  _links: {
                    self: { href: address(failures) },
                    next: { href: address(`${failures}?newest_per_resource=true&after=x`) },
                  },
                })
              : json(200, collection('operations', [])),
      },
    );
    renderApp('/apps');
    const table = await screen.findByRole('table', { name: 'Apps' }, { timeout: 10_000 });
    const shop = (await within(table).findByRole('link', { name: 'shop' })).closest('td') as HTMLElement;
    await within(shop).findByText("fatal: couldn't find remote ref nope");
    expect(within(shop).getByRole('link', { name: 'View the failed deploy operation' })).toHaveAttribute(
      'href',
      '/operations/41',
    );
    // The second page (its next link) is followed: the list is complete.
    const blog = within(table).getByRole('link', { name: 'blog' }).closest('td') as HTMLElement;
    await within(blog).findByText('Out of memory');
    // One list for the organization, asked for the newest failed operation of each app; no log read.
    const asked = calls.filter((call) => call.path.includes('newest_per_resource'));
    expect(asked).toHaveLength(2);
    const first = new URL(address(asked[0]?.path ?? '')).searchParams;
    expect(Object.fromEntries(first)).toMatchObject({
      resource_type: 'app',
      operation_status: 'failed',
      newest_per_resource: 'true',
    });
    expect(calls.some((call) => call.path.includes('/logs'))).toBe(false);
  });
});
