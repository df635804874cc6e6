import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, errorBody, HOST, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

// jsdom has no canvas: the drawn chart is replaced, everything around it (states, legend) is real.
vi.mock('../../../features/metrics/components/uplot-canvas.tsx', () => ({
  UPlotCanvas: ({ title }: { title: string }) => <div role="img" aria-label={`${title} over time`} />,
}));

const api = (path: string) => `${HOST}/api${path}`;
const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const serviceHal = {
  _type: 'service',
  id: '5',
  handle: 'web',
  process_type: 'web',
  container_count: 2,
  container_memory_limit_mb: 1024,
  instance_class: 'm5',
  _links: {
    self: { href: api('/services/5') },
    account: { href: api('/accounts/10') },
    app: { href: api('/apps/1') },
  },
};

function releaseHal(id: string, createdAt: number) {
  return {
    _type: 'release',
    id,
    created_at: iso(createdAt),
    _links: {
      self: { href: api(`/releases/${id}`) },
      containers: { href: api(`/releases/${id}/containers`) },
    },
  };
}

function containerHal(
  id: string,
  releaseId: string,
  status = 'running',
  updatedAt = Date.now() - 10 * 86400_000,
) {
  return {
    _type: 'container',
    id,
    docker_name: `shop-web-${id}`,
    layer: 'app',
    status,
    memory_limit: 1024,
    updated_at: iso(updatedAt),
    _links: { release: { href: api(`/releases/${releaseId}`) } },
  };
}

const query = (call: RecordedCall) => new URL(call.path, HOST).searchParams;

/** A metric tunnel answer as contract §4.4 shapes it (memory has usage and limit). */
function proxyAnswer(call: RecordedCall) {
  const id = call.path.split('?')[0]?.split('/').at(-1) ?? '';
  const metric = query(call).get('metric');
  const now = Date.now();
  const time = ['time_0', iso(now - 2000), iso(now - 1000), iso(now)];
  const columns =
    metric === 'memory_all'
      ? [time, [`shop-web-${id} usage`, null, 300, 310], [`shop-web-${id} limit`, null, 1024, 1024]]
      : [time, [`shop-web-${id}`, 1, 2, 3]];
  return json(200, { columns });
}

function routes(
  containers: ReturnType<typeof containerHal>[],
  overrides: Record<string, (call: RecordedCall) => Response | Promise<Response>> = {},
) {
  const now = Date.now();
  return {
    ...consoleRoutes({
      stacks: [stackHal({ id: '1', isDefault: true })],
      environments: [environmentHal({ id: '10' })],
    }),
    'GET /api/apps/1': () => json(200, appResourceFixture({ id: '1', handle: 'shop' })),
    'GET /api/services/5': () => json(200, serviceHal),
    'GET /api/services/5/operations': () => json(200, collection('operations', [])),
    'GET /api/services/5/releases?with_deleted=true': () =>
      json(
        200,
        collection('releases', [
          releaseHal('31', now - 2 * HOUR),
          releaseHal('30', now - 3 * 86400_000),
          // Older than the 7-day lookback: neither its containers nor their metrics are asked for.
          releaseHal('29', now - 9 * 86400_000),
        ]),
      ),
    'GET /api/releases/31/containers?with_deleted=true': () =>
      json(
        200,
        collection(
          'containers',
          containers.filter((c) => c._links.release.href.endsWith('/31')),
        ),
      ),
    'GET /api/releases/30/containers?with_deleted=true': () =>
      json(
        200,
        collection(
          'containers',
          containers.filter((c) => c._links.release.href.endsWith('/30')),
        ),
      ),
    ...Object.fromEntries(containers.map((c) => [`GET /metrics/proxy/${c.id}`, proxyAnswer])),
    ...overrides,
  };
}

const proxyCalls = (calls: RecordedCall[], metric?: string) =>
  calls.filter(
    (call) => call.path.startsWith('/metrics/proxy/') && (!metric || query(call).get('metric') === metric),
  );

describe('service Metrics tab (spec 2 §2, §9; contract §4.4)', () => {
  it('charts memory, CPU and load of the charted containers, with "<metric> - <label>" legends', async () => {
    signIn();
    const server = mockServer(
      routes([
        containerHal('101', '31'),
        containerHal('102', '31'),
        // Stopped an hour and a half ago: outside the 1h horizon.
        containerHal('90', '30', 'stopped', Date.now() - 1.5 * HOUR),
        { ...containerHal('91', '31'), layer: 'proxy' },
      ]),
    );
    renderApp('/apps/1/services/5/metrics');
    const memory = await screen.findByRole('list', { name: 'memory_all legend' }, { timeout: 5000 });
    expect(
      within(memory)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'memory_all - shop-web-101 usage',
      'memory_all - shop-web-101 limit',
      'memory_all - shop-web-102 usage',
      'memory_all - shop-web-102 limit',
    ]);
    expect(await screen.findByRole('list', { name: 'cpu_pct legend' })).toHaveTextContent(
      'cpu_pct - shop-web-101',
    );
    expect(await screen.findByRole('list', { name: 'la legend' })).toHaveTextContent('la - shop-web-102');
    expect(await screen.findByRole('img', { name: 'Memory over time' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'fs chart' })).not.toBeInTheDocument();
    const calls = proxyCalls(server.calls);
    expect(calls.map((call) => call.path.split('?')[0]).sort()).toEqual(
      ['101', '101', '101', '102', '102', '102'].map((id) => `/metrics/proxy/${id}`),
    );
    for (const call of calls) {
      const params = query(call);
      expect(params.get('horizon')).toBe('1h');
      expect(params.get('requestedTicks')).toBe('300');
      expect(params.get('ts')).toMatch(/^\d+$/);
      expect(call.headers.Authorization).toMatch(/^Bearer /);
    }
    expect(server.callsTo('GET', '/api/releases/29/containers')).toHaveLength(0);
    expect(screen.getByRole('button', { name: '1h' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('switches the horizon in the query string and charts containers stopped within it', async () => {
    signIn();
    const server = mockServer(
      routes([containerHal('101', '31'), containerHal('90', '30', 'stopped', Date.now() - 1.5 * HOUR)]),
    );
    const { router } = renderApp('/apps/1/services/5/metrics');
    await screen.findByRole('list', { name: 'cpu_pct legend' });
    expect(screen.queryByText('cpu_pct - shop-web-90')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: '1d' }));
    expect(router.state.location.search).toBe('?horizon=1d');
    expect(router.state.location.pathname).toBe('/apps/1/services/5/metrics');
    expect(await screen.findByText('cpu_pct - shop-web-90')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '1d' })).toHaveAttribute('aria-pressed', 'true');
    const daily = proxyCalls(server.calls).filter((call) => query(call).get('horizon') === '1d');
    expect(daily.map((call) => call.path.split('?')[0]).sort()).toEqual(
      ['90', '90', '90', '101', '101', '101'].map((id) => `/metrics/proxy/${id}`).sort(),
    );
  });

  it('keeps the horizon of a shared link', async () => {
    signIn();
    const server = mockServer(routes([containerHal('101', '31')]));
    renderApp('/apps/1/services/5/metrics?horizon=1w');
    await screen.findByRole('list', { name: 'la legend' });
    expect(screen.getByRole('button', { name: '1w' })).toHaveAttribute('aria-pressed', 'true');
    expect(proxyCalls(server.calls).every((call) => query(call).get('horizon') === '1w')).toBe(true);
  });

  it('asks for 20 containers at a time, each batch 250 ms after the answers of the one before', async () => {
    signIn();
    const containers = Array.from({ length: 45 }, (_, index) => containerHal(String(200 + index), '31'));
    // Each container's answers wait until the test opens its batch's gate (a batch: 20 in the order asked),
    // so what is proven is the order of things, not how fast this machine is.
    const batchOf = new Map<string, number>();
    const gates = [0, 1, 2].map(() => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { open, opened };
    });
    const asked: number[] = [];
    const server = mockServer(
      routes(containers, {
        ...Object.fromEntries(
          containers.map((c) => [
            `GET /metrics/proxy/${c.id}`,
            async (call: RecordedCall) => {
              if (!batchOf.has(c.id)) batchOf.set(c.id, Math.floor(batchOf.size / 20));
              if (query(call).get('metric') === 'cpu_pct') asked.push(performance.now());
              await gates[batchOf.get(c.id) ?? 0]?.opened;
              return proxyAnswer(call);
            },
          ]),
        ),
      }),
    );
    renderApp('/apps/1/services/5/metrics');
    for (const [batch, askedSoFar] of [20, 40, 45].entries()) {
      // The whole batch is asked for while none of it is answered: at once.
      await waitFor(() => expect(asked).toHaveLength(askedSoFar), { timeout: 3000 });
      // The next batch waits for these answers, however long they take.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(asked).toHaveLength(askedSoFar);
      const answeredAt = performance.now();
      gates[batch]?.open();
      if (askedSoFar < 45) {
        await waitFor(() => expect(asked.length).toBeGreaterThan(askedSoFar), { timeout: 3000 });
        expect((asked[askedSoFar] ?? 0) - answeredAt).toBeGreaterThanOrEqual(240);
      }
    }
    await screen.findByRole('list', { name: 'cpu_pct legend' }, { timeout: 3000 });
    expect(proxyCalls(server.calls, 'memory_all')).toHaveLength(45);
  });

  it('shows a failed chart with its message while the others load', async () => {
    signIn();
    const message = 'You do not have "read" permissions for this environment (id:10)';
    mockServer(
      routes([containerHal('101', '31')], {
        'GET /metrics/proxy/101': (call) =>
          query(call).get('metric') === 'cpu_pct'
            ? json(403, errorBody(403, 'forbidden', message))
            : proxyAnswer(call),
      }),
    );
    renderApp('/apps/1/services/5/metrics');
    const cpu = await screen.findByRole('region', { name: 'cpu_pct chart' });
    expect(await within(cpu).findByRole('alert')).toHaveTextContent(`Error: ${message}`);
    expect(await screen.findByRole('list', { name: 'memory_all legend' })).toBeInTheDocument();
    expect(within(cpu).queryByRole('list')).not.toBeInTheDocument();
  });

  it('says so when no container ran within the horizon', async () => {
    signIn();
    mockServer(routes([containerHal('90', '30', 'stopped', Date.now() - 1.5 * HOUR)]));
    renderApp('/apps/1/services/5/metrics');
    expect(await screen.findByRole('region', { name: 'No data found' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('0 containers')).toBeInTheDocument());
  });
});
