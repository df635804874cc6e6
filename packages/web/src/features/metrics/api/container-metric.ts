import { type ContainerMetric, METRIC_REQUESTED_TICKS, type MetricHorizon } from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';

/** contract §4.4 response: a column-major table. */
export interface MetricTableWire {
  columns?: unknown[][];
}

/** One container's answer: the tick times (ms) and its labelled series, one value per tick. */
export interface MetricTable {
  containerId: string;
  times: number[];
  series: { label: string; values: (number | null)[] }[];
}

/**
 * Reads the contract's table: the `time_0` column gives the ticks (ISO-8601, UTC), a `time_1`
 * column is ignored, every other column is a label and its values (null or missing is a gap).
 */
export function parseMetricTable(containerId: string, body: MetricTableWire): MetricTable {
  const columns = Array.isArray(body.columns) ? body.columns : [];
  const time = columns.find((column) => column[0] === 'time_0');
  if (!time) throw new Error('The metric response has no time_0 column');
  const times = time.slice(1).map((value) => Date.parse(String(value)));
  const series = columns
    .filter((column) => column !== time && typeof column[0] === 'string' && column[0] !== 'time_1')
    .map((column) => ({
      label: String(column[0]),
      values: times.map((_, index) => {
        const value = column[index + 1];
        return typeof value === 'number' && Number.isFinite(value) ? value : null;
      }),
    }));
  return { containerId, times, series };
}

/** contract §5.14 GET /proxy/:containerId on the metric tunnel (one container, one metric). */
export async function fetchContainerMetric(
  containerId: string,
  metric: ContainerMetric,
  horizon: MetricHorizon,
  signal?: AbortSignal,
): Promise<MetricTable> {
  const query = new URLSearchParams({
    horizon,
    ts: String(Date.now()),
    metric,
    requestedTicks: String(METRIC_REQUESTED_TICKS),
  });
  const body = await apiRequest<MetricTableWire>(
    'metrics',
    `/proxy/${encodeURIComponent(containerId)}?${query}`,
    { signal },
  );
  return parseMetricTable(containerId, body);
}
