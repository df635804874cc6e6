import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 release: the image a service runs; its containers are listed under it. */
export const releaseResource = z
  .strictObject({
    id: halId,
    _type: z.literal('release'),
    docker_repo: z.string(),
    docker_ref: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'service', 'containers']),
  })
  .meta({ id: 'Release' });
export type ReleaseResource = z.infer<typeof releaseResource>;

export const releaseCollection = halCollection('releases', releaseResource).meta({ id: 'ReleaseCollection' });
export type ReleaseCollection = z.infer<typeof releaseCollection>;
