import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/** Contract §4.3 database_image. `eol_at` is set only once the end of life has been reached. */
export const databaseImageResource = z
  .strictObject({
    id: halId,
    _type: z.literal('database_image'),
    type: z.string(),
    version: z.string(),
    description: z.string(),
    docker_repo: z.string(),
    default: z.boolean(),
    discoverable: z.boolean(),
    visible: z.boolean(),
    eol_at: isoTimestampOrNull,
    pitr_supported: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self']),
  })
  .meta({ id: 'DatabaseImage' });
export type DatabaseImageResource = z.infer<typeof databaseImageResource>;

export const databaseImageCollection = halCollection('database_images', databaseImageResource).meta({
  id: 'DatabaseImageCollection',
});
export type DatabaseImageCollection = z.infer<typeof databaseImageCollection>;
