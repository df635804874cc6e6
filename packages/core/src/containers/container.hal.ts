import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 container: `updated_at` of a stopped one tells the metrics whether it is inside the horizon. */
export const containerResource = z
  .strictObject({
    id: halId,
    _type: z.literal('container'),
    docker_name: z.string(),
    host: z.string(),
    aws_instance_id: z.string(),
    instance_class: z.string(),
    status: z.string(),
    layer: z.string(),
    memory_limit: z.number().int(),
    port: z.number().int(),
    port_mapping: z.array(z.array(z.number().int())),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['release']),
  })
  .meta({ id: 'Container' });
export type ContainerResource = z.infer<typeof containerResource>;

export const containerCollection = halCollection('containers', containerResource).meta({
  id: 'ContainerCollection',
});
export type ContainerCollection = z.infer<typeof containerCollection>;
