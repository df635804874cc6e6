import type { ContainerMetric, MetricHorizon } from '@berth/core';

export const metricKeys = {
  all: ['metrics'] as const,
  /** One chart: a metric of several containers over a horizon. */
  chart: (metric: ContainerMetric, horizon: MetricHorizon, containerIds: readonly string[]) =>
    [...metricKeys.all, 'chart', metric, horizon, containerIds.join(',')] as const,
};
