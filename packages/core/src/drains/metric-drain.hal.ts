import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.3 metric_drain. `drain_configuration` comes with its secrets (password, token, API key)
 * masked. Berth adds what the shipper did: points sent, its last error, when it last sent.
 */
export const metricDrainResource = z
  .strictObject({
    id: halId,
    _type: z.literal('metric_drain'),
    handle: z.string(),
    drain_type: z.string(),
    drain_configuration: z.record(z.string(), z.string()),
    status: z.string(),
    aggregator_host: z.string(),
    aggregator_instance_id: z.string(),
    aggregator_docker_name: z.string(),
    aggregator_ca_certificate: z.string(),
    aggregator_ca_private_key_blob: z.string(),
    aggregator_port_mapping: z.array(z.array(z.number().int())),
    aggregator_allocation: z.array(z.string()),
    points_sent: z.number().int(),
    last_error: z.string(),
    last_shipped_at: isoTimestamp.nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account', 'operations'], ['database']),
  })
  .meta({ id: 'MetricDrain' });
export type MetricDrainResource = z.infer<typeof metricDrainResource>;

export const metricDrainCollection = halCollection('metric_drains', metricDrainResource).meta({
  id: 'MetricDrainCollection',
});
export type MetricDrainCollection = z.infer<typeof metricDrainCollection>;
