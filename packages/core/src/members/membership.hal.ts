import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 membership: a user in a role; `privileged` makes them the role's admin. */
export const membershipResource = z
  .strictObject({
    id: halId,
    _type: z.literal('membership'),
    privileged: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user', 'role']),
  })
  .meta({ id: 'Membership' });
export type MembershipResource = z.infer<typeof membershipResource>;

export const membershipCollection = halCollection('memberships', membershipResource).meta({
  id: 'MembershipCollection',
});
export type MembershipCollection = z.infer<typeof membershipCollection>;

/**
 * Contract §5.3 `GET /organizations/:id/roles/memberships`: `_embedded` maps each role id to its
 * memberships (a map, never an array); roles without members are left out.
 */
export const roleMembershipsMap = z
  .strictObject({
    _embedded: z.record(z.string(), z.strictObject({ memberships: z.array(membershipResource) })),
    _links: halLinks(['self']),
  })
  .meta({ id: 'RoleMembershipsMap' });
export type RoleMembershipsMap = z.infer<typeof roleMembershipsMap>;
