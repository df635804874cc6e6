import type { MetricDrainResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { metricDrains } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type MetricDrainRow = typeof metricDrains.$inferSelect;

/** The configuration keys that are secrets: answered as their last four characters at most. */
const SECRET_KEYS = new Set(['password', 'authToken', 'api_key']);

function masked(secret: string): string {
  return secret.length > 8 ? `••••${secret.slice(-4)}` : secret ? '••••' : '';
}

/** Contract §4.3 metric_drain: the configuration with its secrets masked; no aggregator in Berth. */
export function toMetricDrainHal(
  drain: MetricDrainRow,
  urls: FamilyUrls,
  configuration: Record<string, string>,
): MetricDrainResource {
  const api = urls.api;
  return {
    id: String(drain.id),
    _type: 'metric_drain' as const,
    handle: drain.handle,
    drain_type: drain.drainType,
    drain_configuration: Object.fromEntries(
      Object.entries(configuration).map(([key, value]) => [
        key,
        SECRET_KEYS.has(key) ? masked(value) : value,
      ]),
    ),
    status: drain.status,
    aggregator_host: '',
    aggregator_instance_id: '',
    aggregator_docker_name: '',
    aggregator_ca_certificate: '',
    aggregator_ca_private_key_blob: '',
    aggregator_port_mapping: [],
    aggregator_allocation: [],
    points_sent: drain.pointsSent,
    last_error: drain.lastError,
    last_shipped_at: drain.lastShippedAt ? iso(drain.lastShippedAt) : null,
    created_at: iso(drain.createdAt),
    updated_at: iso(drain.updatedAt),
    _links: links({
      self: `${api}/metric_drains/${drain.id}`,
      account: `${api}/accounts/${drain.environmentId}`,
      operations: `${api}/metric_drains/${drain.id}/operations`,
      database: drain.databaseId ? `${api}/databases/${drain.databaseId}` : undefined,
    }),
  };
}
