import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 service: links to exactly one of its app or its database. */
export const serviceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('service'),
    handle: z.string(),
    process_type: z.string(),
    command: z.string().nullable(),
    docker_repo: z.string(),
    docker_ref: z.string(),
    container_count: z.number().int(),
    container_memory_limit_mb: z.number().int(),
    instance_class: z.string(),
    force_zero_downtime: z.boolean(),
    naive_health_check: z.boolean(),
    stop_timeout: z.number().int().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(
      ['self', 'account', 'releases', 'operations'],
      ['app', 'database', 'current_release', 'service_sizing_policy'],
    ),
  })
  .meta({ id: 'Service' });
export type ServiceResource = z.infer<typeof serviceResource>;

export const serviceCollection = halCollection('services', serviceResource).meta({ id: 'ServiceCollection' });
export type ServiceCollection = z.infer<typeof serviceCollection>;
