import { z } from 'zod';
import { halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 image: what a deploy built or pulled for an app. */
export const imageResource = z
  .strictObject({
    id: halId,
    _type: z.literal('image'),
    docker_repo: z.string().nullable(),
    docker_ref: z.string().nullable(),
    git_repo: z.string().nullable(),
    git_ref: z.string().nullable(),
    exposed_ports: z.array(z.number().int()),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'app']),
  })
  .meta({ id: 'Image' });
export type ImageResource = z.infer<typeof imageResource>;
