import type { MetricHorizon } from '@berth/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { signIn } from '../../../../test/render.tsx';
import { MetricsPanel } from './metrics-panel.tsx';

// The chart library draws on a canvas jsdom does not have: count what the page asks of it instead.
const plots = vi.hoisted(() => ({ created: 0, destroyed: 0 }));
vi.mock('uplot', () => {
  class FakePlot {
    static join(tables: unknown[][]) {
      return tables[0] ?? [[]];
    }
    constructor() {
      plots.created += 1;
    }
    setSize() {}
    destroy() {
      plots.destroyed += 1;
    }
  }
  return { default: FakePlot };
});

/** Two containers with the same labels (contract §4.4: usage and limit per container). */
const table = () =>
  json(200, {
    columns: [
      ['time_0', '2026-01-01T10:00:00Z', '2026-01-01T10:00:12Z'],
      ['usage', 100, 120],
      ['limit', 512, 512],
    ],
  });

function Panel() {
  const [horizon, setHorizon] = useState<MetricHorizon>('1h');
  return (
    <MetricsPanel
      horizon={horizon}
      onHorizonChange={setHorizon}
      metrics={['memory_all']}
      containers={[{ id: 'c1' }, { id: 'c2' }]}
    />
  );
}

function renderPanel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <Panel />
    </QueryClientProvider>,
  );
}

describe('MetricsPanel charts (contract §4.4)', () => {
  beforeEach(() => {
    plots.created = 0;
    plots.destroyed = 0;
    signIn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        disconnect() {}
      },
    );
    mockServer({ 'GET /metrics/proxy/c1': table, 'GET /metrics/proxy/c2': table });
  });
  afterEach(() => vi.restoreAllMocks());

  it('lists a legend item per container and label, with unique keys', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderPanel();
    const legend = await screen.findByRole('list', { name: 'memory_all legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['memory_all - usage', 'memory_all - limit', 'memory_all - usage', 'memory_all - limit']);
    expect(errors.mock.calls.flat().join(' ')).not.toMatch(/same key/);
  });

  it('destroys the plot when the horizon changes and when the chart unmounts', async () => {
    const view = renderPanel();
    await screen.findByRole('img', { name: 'Memory over time' });
    expect(plots.created).toBe(1);
    expect(plots.destroyed).toBe(0);

    await userEvent.setup().click(screen.getByRole('button', { name: '1d' }));
    await screen.findByRole('img', { name: 'Memory over time' });
    expect(plots.created).toBe(2);
    expect(plots.destroyed).toBe(1);

    act(() => view.unmount());
    expect(plots.destroyed).toBe(2);
  });
});
