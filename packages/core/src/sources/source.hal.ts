import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** A distinct commit the source's apps currently run (spec 3 §3). */
export const liveCommit = z.strictObject({
  sha: z.string(),
  ref: z.string(),
  message: z.string(),
  date: isoTimestamp,
  url: z.string(),
});
export type LiveCommit = z.infer<typeof liveCommit>;

/**
 * Contract §4.3 source: `display_name` null is shown as "Unknown". Berth adds the row figures of
 * spec 3 §3 (app and deployment counts, live commits, newest first) so no client has to derive them.
 */
export const sourceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('source'),
    display_name: z.string().nullable(),
    url: z.string(),
    app_count: z.number().int(),
    deployment_count: z.number().int(),
    live_commits: z.array(liveCommit),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'deployments']),
  })
  .meta({ id: 'Source' });
export type SourceResource = z.infer<typeof sourceResource>;

export const sourceCollection = halCollection('sources', sourceResource).meta({ id: 'SourceCollection' });
export type SourceCollection = z.infer<typeof sourceCollection>;
