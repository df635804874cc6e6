import { METRIC_DRAIN_TYPE_LABELS, type MetricDrainResource, type MetricDrainType } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 metric_drain as the console reads it. */
export interface MetricDrain {
  id: string;
  handle: string;
  drainType: string;
  /** Where the points go: the InfluxDB address, the Datadog series URL, or the database. */
  destination: string;
  status: string;
  pointsSent: number;
  lastError: string;
  lastShippedAt: string | null;
  environmentId: string | null;
}

export function fromMetricDrainResource(drain: MetricDrainResource): MetricDrain {
  const configuration = drain.drain_configuration;
  return {
    id: idOf(drain),
    handle: drain.handle,
    drainType: drain.drain_type,
    destination:
      configuration.address ??
      configuration.series_url ??
      (linkId(drain, 'database') ? 'InfluxDB database' : ''),
    status: drain.status,
    pointsSent: drain.points_sent,
    lastError: drain.last_error,
    lastShippedAt: drain.last_shipped_at,
    environmentId: linkId(drain, 'account'),
  };
}

export function metricDrainTypeLabel(drain: Pick<MetricDrain, 'drainType'>): string {
  return METRIC_DRAIN_TYPE_LABELS[drain.drainType as MetricDrainType] ?? drain.drainType;
}
