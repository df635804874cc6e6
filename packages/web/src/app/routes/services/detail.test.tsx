import type { OperationResource } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, stackHal } from '../../../../test/fixtures.ts';
import { type OperationFixture, operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { serviceResourceFixture } from '../../../../test/service-fixtures.ts';

/** The `web` service of app 1 in environment 10, two 1 GB containers. */
const serviceHal = () => serviceResourceFixture({ id: '5', command: 'npm start', container_count: 2 });

/** A scale of service 5 by Ada to `containerCount` containers. */
function scaleHal(
  id: string,
  status: string,
  containerCount: number,
  createdAt: string,
  fields: OperationFixture = {},
): OperationResource {
  return operationResourceFixture({
    id,
    type: 'scale',
    status,
    container_count: containerCount,
    user_name: 'Ada',
    resource_type: 'service',
    resource_id: '5',
    resource_handle: 'web',
    created_at: createdAt,
    ...fields,
  });
}

function routes(operations: OperationResource[][]) {
  return {
    ...consoleRoutes({
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [environmentHal({ id: '10' })],
    }),
    'GET /api/apps/1': () => json(200, appResourceFixture({ id: '1', handle: 'shop' })),
    'GET /api/services/5': () => json(200, serviceHal()),
    'GET /api/services/5/vhosts': () => json(200, collection('vhosts', [])),
    // The Metrics tab (the default one) lists the service's releases; none here.
    'GET /api/services/5/releases': () => json(200, collection('releases', [])),
    'GET /api/stacks/1': () => json(200, { ...stackHal({ id: '1' }), allow_m_instance_profile: true }),
    'GET /api/services/5/operations': operations.map(
      (list) => () => json(200, collection('operations', list)),
    ),
  };
}

describe('service scale banner (spec 2 §4)', () => {
  it('reads Scale in Progress with the from/to summary while the latest scale runs', async () => {
    signIn();
    mockServer(
      routes([
        [
          scaleHal('2', 'running', 3, '2026-01-02T00:00:00Z'),
          scaleHal('1', 'succeeded', 2, '2026-01-01T00:00:00Z'),
        ],
      ]),
    );
    renderApp('/apps/1/services/5');
    expect(await screen.findByText('Scale in Progress')).toBeInTheDocument();
    expect(screen.getByText('Container count from 2 to 3')).toBeInTheDocument();
    // One banner for the scale, not the generic operation banner as well.
    expect(screen.queryByText('scale RUNNING')).not.toBeInTheDocument();
  });

  it('reads Last Scale with the from/to summary once the latest scale finished', async () => {
    signIn();
    mockServer(
      routes([
        [
          scaleHal('2', 'succeeded', 3, '2026-01-02T00:00:00Z'),
          scaleHal('1', 'succeeded', 2, '2026-01-01T00:00:00Z'),
        ],
      ]),
    );
    const { router } = renderApp('/apps/1/services/5');
    expect(await screen.findByText('Last Scale')).toBeInTheDocument();
    expect(screen.getByText('Container count from 2 to 3')).toBeInTheDocument();
    expect(screen.queryByText('Scale in Progress')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/apps/1/services/5');
  });

  it('reads "from" from the values the scale recorded when it ran, even for the first scale', async () => {
    signIn();
    mockServer(
      routes([
        [
          scaleHal('1', 'succeeded', 2, '2026-01-01T00:00:00Z', {
            container_size: 1024,
            instance_profile: 'r5',
            previous_container_count: 1,
            previous_container_size: 512,
            previous_instance_profile: 'm5',
          }),
        ],
      ]),
    );
    renderApp('/apps/1/services/5');
    expect(await screen.findByText('Last Scale')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Container count from 1 to 2; Container size from 512 MB to 1 GB; Container profile from m5 to r5',
      ),
    ).toBeInTheDocument();
  });

  it('is hidden when the service has no scale operation', async () => {
    signIn();
    mockServer(routes([[]]));
    renderApp('/apps/1/services/5');
    expect(await screen.findByRole('heading', { level: 1, name: 'web' })).toBeInTheDocument();
    expect(screen.queryByText('Last Scale')).not.toBeInTheDocument();
    expect(screen.queryByText('Scale in Progress')).not.toBeInTheDocument();
  });

  it('refreshes the costs and the operation lists when a scale finishes', async () => {
    signIn();
    const server = mockServer({
      ...routes([[], [scaleHal('7', 'succeeded', 3, '2026-01-02T00:00:00Z')]]),
      'POST /api/services/5/operations': () => json(201, scaleHal('7', 'queued', 3, '2026-01-02T00:00:00Z')),
      'GET /api/operations/7': () => json(200, scaleHal('7', 'succeeded', 3, '2026-01-02T00:00:00Z')),
    });
    renderApp('/apps/1/services/5/scale');
    const user = userEvent.setup();
    const count = await screen.findByRole('spinbutton', { name: 'Number of Containers' });
    const costCalls = () => server.callsTo('GET', '/api/costs/org-1/services').length;
    await waitFor(() => expect(costCalls()).toBeGreaterThan(0));
    const costsBefore = costCalls();
    const listCalls = () => server.callsTo('GET', '/api/services/5/operations').length;
    const listsBefore = listCalls();
    await user.clear(count);
    await user.type(count, '3');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Last Scale')).toBeInTheDocument();
    await waitFor(() => expect(costCalls()).toBeGreaterThan(costsBefore));
    expect(listCalls()).toBeGreaterThan(listsBefore);
  });
});
