import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 role: `type` is one of the role types (spec 1 §6). */
export const roleResource = z
  .strictObject({
    id: halId,
    _type: z.literal('role'),
    name: z.string(),
    type: z.string(),
    scim_created: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'memberships', 'users']),
  })
  .meta({ id: 'Role' });
export type RoleResource = z.infer<typeof roleResource>;

export const roleCollection = halCollection('roles', roleResource).meta({ id: 'RoleCollection' });
export type RoleCollection = z.infer<typeof roleCollection>;
