import { type OperationResource, SIZING_POLICY_DEFAULTS } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, HOST, stackHal } from '../../../../test/fixtures.ts';
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

describe('service autoscaling and scaling recommendations (spec 2 §4)', () => {
  const policyHal = (fields: Record<string, unknown> = {}) => ({
    ...SIZING_POLICY_DEFAULTS,
    id: '9',
    _type: 'service_sizing_policy',
    created_at: '2026-11-27T10:00:00.000Z',
    updated_at: '2026-11-27T10:00:00.000Z',
    _links: {
      self: { href: `${HOST}/api/services/5/service_sizing_policies` },
      account: { href: `${HOST}/api/accounts/10` },
      service: { href: `${HOST}/api/services/5` },
    },
    ...fields,
  });
  const autoscalingStack = () => ({
    ...stackHal({ id: '1' }),
    allow_m_instance_profile: true,
    horizontal_autoscaling: true,
    vertical_autoscaling: true,
  });

  it('sets a horizontal policy from the Scale tab and shows it beside the form', async () => {
    signIn();
    const server = mockServer({
      ...routes([[]]),
      'GET /api/stacks/1': () => json(200, autoscalingStack()),
      'GET /api/services/5/service_sizing_policies': [
        () => json(404, errorBody(404, 'not_found', 'This service has no sizing policy')),
        () => json(200, policyHal({ scaling_enabled: true, autoscaling: 'horizontal', max_containers: 6 })),
      ],
      'POST /api/services/5/service_sizing_policies': () =>
        json(201, policyHal({ scaling_enabled: true, autoscaling: 'horizontal', max_containers: 6 })),
    });
    renderApp('/apps/1/services/5/scale');
    const user = userEvent.setup();
    expect(
      await screen.findByText('No policy: this service keeps the size and count it is given.'),
    ).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Autoscaling' }), 'horizontal');
    const max = screen.getByLabelText('Maximum containers');
    await user.clear(max);
    await user.type(max, '6');
    await user.click(screen.getByRole('button', { name: 'Save Autoscaling' }));
    await waitFor(() =>
      expect(server.callsTo('POST', '/api/services/5/service_sizing_policies')).toHaveLength(1),
    );
    expect(server.callsTo('POST', '/api/services/5/service_sizing_policies')[0]?.body).toMatchObject({
      scaling_enabled: true,
      autoscaling: 'horizontal',
      min_containers: 2,
      max_containers: 6,
    });
    const current = await screen.findByRole('region', { name: 'Current policy details' });
    expect(await within(current).findByText('2 to 6')).toBeInTheDocument();
    // The notice outlives the form's fresh start on the saved policy.
    expect(screen.getByText('Autoscaling policy saved.')).toBeInTheDocument();
  });

  it('reads Autoscaling for a service with autoscaling on, and a recommendation otherwise', async () => {
    signIn();
    mockServer({
      ...routes([[]]),
      'GET /api/service_sizing_policies': () =>
        json(200, collection('service_sizing_policies', [policyHal({ scaling_enabled: true })])),
    });
    renderApp('/apps/1/services/5');
    const details = await screen.findByRole('region', { name: 'Service details' });
    expect(await within(details).findByText('Autoscaling')).toBeInTheDocument();
  });

  it('reads Scale Down with the saving of a fresh recommendation made for its size', async () => {
    signIn();
    mockServer({
      ...routes([[]]),
      'GET /api/manual_service_sizing_recommendations': () =>
        json(
          200,
          collection('manual_service_sizing_recommendations', [
            {
              id: '3',
              _type: 'manual_service_sizing_recommendation',
              service_id: '5',
              cpu_usage: 0.1,
              ram_usage: 300,
              ram_target: 375,
              recommended_instance_class: 'm5',
              recommended_container_memory_limit_mb: 512,
              instance_class_at_time: 'm5',
              container_memory_limit_mb_at_time: 1024,
              cost_savings: 187.5,
              metric_percentile: 95,
              created_at: new Date().toISOString(),
              updated_at: new Date().toISOString(),
              _links: {
                self: { href: `${HOST}/api/manual_service_sizing_recommendations/3` },
                service: { href: `${HOST}/api/services/5` },
              },
            },
          ]),
        ),
    });
    renderApp('/apps/1/services/5');
    const details = await screen.findByRole('region', { name: 'Service details' });
    expect(await within(details).findByText('Scale Down')).toBeInTheDocument();
    expect(within(details).getByText('(Save up to $187.50)')).toBeInTheDocument();
  });
});

describe('service restart (issue 20)', () => {
  it('restarts one service after a confirmation that says what happens', async () => {
    signIn();
    const server = mockServer({
      ...routes([[]]),
      'POST /api/services/5/operations': () =>
        json(201, scaleHal('8', 'queued', 2, '2026-01-02T00:00:00Z', { type: 'restart' })),
      'GET /api/operations/8': () =>
        json(200, scaleHal('8', 'succeeded', 2, '2026-01-02T00:00:00Z', { type: 'restart' })),
    });
    renderApp('/apps/1/services/5/settings');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Restart Service web' }));
    expect(server.callsTo('POST', '/api/services/5/operations')).toHaveLength(0);
    expect(
      screen.getByText('Its containers stop and start again; requests may fail meanwhile.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Confirm restart of web' }));
    await waitFor(() => expect(server.callsTo('POST', '/api/services/5/operations')).toHaveLength(1));
    expect(server.callsTo('POST', '/api/services/5/operations')[0]?.body).toEqual({
      type: 'restart',
      id: '5',
    });
    expect(await screen.findByText(/restart DONE/)).toBeInTheDocument();
  });
});
