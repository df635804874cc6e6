import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 log_drain; `_embedded.backend.channel` is read unguarded by consoles. */
export const logDrainResource = z
  .strictObject({
    id: halId,
    _type: z.literal('log_drain'),
    handle: z.string(),
    drain_type: z.string(),
    drain_host: z.string(),
    drain_port: z.string(),
    url: z.string(),
    logging_token: z.string(),
    drain_username: z.string(),
    drain_password: z.string(),
    drain_apps: z.boolean(),
    drain_databases: z.boolean(),
    drain_ephemeral_sessions: z.boolean(),
    drain_proxies: z.boolean(),
    status: z.string(),
    // Berth additions: what the shipper did (lines sent, and lost to a full buffer), and its last error.
    lines_sent: z.number().int(),
    lines_dropped: z.number().int(),
    last_error: z.string(),
    last_shipped_at: isoTimestamp.nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _embedded: z.strictObject({ backend: z.strictObject({ channel: z.string() }) }),
    _links: halLinks(['self', 'account', 'operations'], ['database']),
  })
  .meta({ id: 'LogDrain' });
export type LogDrainResource = z.infer<typeof logDrainResource>;

export const logDrainCollection = halCollection('log_drains', logDrainResource).meta({
  id: 'LogDrainCollection',
});
export type LogDrainCollection = z.infer<typeof logDrainCollection>;
