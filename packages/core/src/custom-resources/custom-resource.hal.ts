import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/**
 * contract §4.3 custom_resource (fetched at boot, §7 step 7): a resource the diagnostics graph names that
 * Berth does not model itself (a queue, a third-party service), with free-form `data`.
 */
export const customResourceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('custom_resource'),
    handle: z.string(),
    resource_type: z.string(),
    data: z.record(z.string(), z.unknown()),
    deleted_at: isoTimestampOrNull,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization']),
  })
  .meta({ id: 'CustomResource' });
export type CustomResourceResource = z.infer<typeof customResourceResource>;

export const customResourceCollection = halCollection('custom_resources', customResourceResource).meta({
  id: 'CustomResourceCollection',
});
export type CustomResourceCollection = z.infer<typeof customResourceCollection>;
