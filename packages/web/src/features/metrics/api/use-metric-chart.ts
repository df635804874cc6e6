import {
  type ContainerMetric,
  inBatches,
  METRIC_BATCH_DELAY_MS,
  METRIC_BATCH_SIZE,
  type MetricHorizon,
} from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { fetchContainerMetric, type MetricTable } from './container-metric.ts';
import { metricKeys } from './metric-keys.ts';

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/**
 * spec 2 §9: a chart asks for its containers 20 at a time, 250 ms between batches, so a large
 * service does not fire hundreds of requests at once. Any failure fails the chart with its message.
 */
export async function loadMetricChart(
  metric: ContainerMetric,
  horizon: MetricHorizon,
  containerIds: readonly string[],
  signal?: AbortSignal,
): Promise<MetricTable[]> {
  const tables: MetricTable[] = [];
  for (const [index, batch] of inBatches(containerIds, METRIC_BATCH_SIZE).entries()) {
    if (index > 0) await pause(METRIC_BATCH_DELAY_MS, signal);
    tables.push(...(await Promise.all(batch.map((id) => fetchContainerMetric(id, metric, horizon, signal)))));
  }
  return tables;
}

/** One chart's data: the metric of every charted container (spec 2 §4: loading, success, error). */
export function useMetricChart(
  metric: ContainerMetric,
  horizon: MetricHorizon,
  containerIds: readonly string[],
) {
  return useQuery({
    queryKey: metricKeys.chart(metric, horizon, containerIds),
    queryFn: ({ signal }) => loadMetricChart(metric, horizon, containerIds, signal),
    enabled: containerIds.length > 0,
    // A failed chart shows its message at once; the horizon switch or a reload asks again.
    retry: false,
  });
}
