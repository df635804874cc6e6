import { z } from 'zod';
import { halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §3.2 token: what a sign-in, an exchange or a restored session answers. `actor` is there for a
 * token issued to someone acting as the user.
 */
export const tokenResource = z
  .strictObject({
    id: halId,
    _type: z.literal('token'),
    access_token: z.string(),
    token_type: z.literal('bearer'),
    scope: z.string(),
    expires_in: z.number().int().describe('Seconds left until the token expires'),
    expires_at: isoTimestamp,
    created_at: isoTimestamp,
    _links: halLinks(['self', 'user'], ['actor']),
  })
  .meta({ id: 'Token' });
export type TokenResource = z.infer<typeof tokenResource>;
