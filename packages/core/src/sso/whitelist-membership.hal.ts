import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/** Contract §4.1 whitelist_membership: a member exempt from SSO enforcement (the SSO bypass list). */
export const whitelistMembershipResource = z
  .strictObject({
    id: halId,
    _type: z.literal('whitelist_membership'),
    /** Removal deletes the entry, so this is always null (kept for the contract's shape). */
    deleted_at: isoTimestampOrNull,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'user']),
  })
  .meta({ id: 'WhitelistMembership' });
export type WhitelistMembershipResource = z.infer<typeof whitelistMembershipResource>;

export const whitelistMembershipCollection = halCollection(
  'whitelist_memberships',
  whitelistMembershipResource,
).meta({ id: 'WhitelistMembershipCollection' });
export type WhitelistMembershipCollection = z.infer<typeof whitelistMembershipCollection>;
