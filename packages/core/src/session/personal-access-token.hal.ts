import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/**
 * One personal access token as its owner sees it (Berth addition to contract §4.1): never the secret,
 * which only the answer that made it carries (`createdPersonalAccessTokenResource`). `self` is the
 * token's URL, `DELETE` on it revokes the token (contract §5.1 `DELETE /tokens/:id`).
 */
export const personalAccessTokenResource = z
  .strictObject({
    id: halId,
    _type: z.literal('personal_access_token'),
    name: z.string(),
    scope: z.string(),
    created_at: isoTimestamp,
    expires_at: isoTimestamp,
    last_used_at: isoTimestampOrNull,
    /** Past its expiry: refused everywhere, listed for a while so its owner sees why CI stopped. */
    expired: z.boolean(),
    _links: halLinks(['self', 'user']),
  })
  .meta({ id: 'PersonalAccessToken' });
export type PersonalAccessTokenResource = z.infer<typeof personalAccessTokenResource>;

/** The answer of the request that made a token: the token itself, this once. */
export const createdPersonalAccessTokenResource = personalAccessTokenResource
  .extend({
    access_token: z
      .string()
      .describe('The token: a bearer for the API, the password for git. It is never shown again.'),
  })
  .meta({ id: 'CreatedPersonalAccessToken' });
export type CreatedPersonalAccessTokenResource = z.infer<typeof createdPersonalAccessTokenResource>;

export const personalAccessTokenCollection = halCollection(
  'personal_access_tokens',
  personalAccessTokenResource,
).meta({ id: 'PersonalAccessTokenCollection' });
export type PersonalAccessTokenCollection = z.infer<typeof personalAccessTokenCollection>;
