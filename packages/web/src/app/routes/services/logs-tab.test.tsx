import { scopeDenialMessage } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';

const serviceHal = serviceResourceFixture({ container_count: 2 });

const lines = (tail: number) => ({
  _type: 'service_logs',
  lines: [
    {
      time: '2026-11-27T10:00:00.000Z',
      container: 'shop-web-1-aaaa',
      stream: 'stdout',
      line: `listening on 5000 (tail ${tail})`,
    },
    {
      time: '2026-11-27T10:00:01.000Z',
      container: 'shop-web-2-bbbb',
      stream: 'stderr',
      line: 'ERROR: upstream timed out',
    },
  ],
});

function routes(environment = environmentHal({ id: '10' }), extra = {}) {
  return {
    ...consoleRoutes({
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [environment],
      ...extra,
    }),
    'GET /api/apps/1': () => json(200, appResourceFixture({ id: '1', handle: 'shop' })),
    'GET /api/services/5': () => json(200, serviceHal),
    'GET /api/services/5/operations': () => json(200, collection('operations', [])),
    'GET /api/services/5/logs?tail=200': () => json(200, lines(200)),
    'GET /api/services/5/logs?tail=1000': () => json(200, lines(1000)),
  };
}

describe('service Logs tab', () => {
  it('shows the newest lines of the running containers, stderr marked, and more on request', async () => {
    signIn();
    const { calls } = mockServer(routes());
    renderApp('/apps/1/services/5/logs');
    const list = await screen.findByRole('list', { name: 'Log lines' });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('shop-web-1-aaaa');
    expect(items[0]).toHaveTextContent('listening on 5000 (tail 200)');
    expect(items[1]).toHaveClass('stderr');
    expect(screen.getByRole('checkbox', { name: 'Follow (every 5 seconds)' })).toBeChecked();

    await userEvent.setup().selectOptions(screen.getByLabelText('Lines'), 'Last 1000');
    expect(await screen.findByText('listening on 5000 (tail 1000)')).toBeInTheDocument();
    expect(calls.some((call) => call.path === '/api/services/5/logs?tail=1000')).toBe(true);
  });

  it('says so when the containers printed nothing yet', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/services/5/logs?tail=200': () => json(200, { _type: 'service_logs', lines: [] }),
    });
    renderApp('/apps/1/services/5/logs');
    expect(await screen.findByRole('heading', { name: 'No output yet' })).toBeInTheDocument();
  });

  it('asks nothing of a member without read access, and says why', async () => {
    signIn();
    const { calls } = mockServer(
      routes(
        environmentHal({ id: '10', permissions: [{ id: 'p1', scope: 'basic_read', roleId: 'role-2' }] }),
        {
          roles: [roleHal({ id: 'role-2', name: 'Basic', type: 'platform_user' })],
        },
      ),
    );
    renderApp('/apps/1/services/5/logs');
    expect(await screen.findByText(scopeDenialMessage('read', '10'))).toBeInTheDocument();
    await waitFor(() => expect(calls.some((call) => call.path.includes('/logs'))).toBe(false));
  });
});
