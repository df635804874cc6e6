import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { SCOPES } from './permissions.ts';

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

/**
 * Issue 41: how many of a role's environments one answer names. A summary of more reads as a list no one
 * reads; the rest are counted (`unlisted_environment_count`).
 */
export const ROLE_ENVIRONMENT_ACCESS_LIMIT = 50;

/**
 * Berth addition (issue 41), `GET /roles/:id/environment_access`: where a role reaches, for those who may
 * invite into it. The environments the caller sees are named with the role's scopes there, the first
 * ROLE_ENVIRONMENT_ACCESS_LIMIT by handle; the others the role reaches are only counted, so an inviter
 * who sees fewer environments than the role reaches is told so without learning their names.
 */
export const roleEnvironmentAccessResource = z
  .strictObject({
    _type: z.literal('role_environment_access'),
    environments: z
      .array(
        z.strictObject({
          id: halId,
          handle: z.string(),
          scopes: z.array(z.enum(SCOPES)),
        }),
      )
      .max(ROLE_ENVIRONMENT_ACCESS_LIMIT),
    /** Environments the role reaches that the caller cannot see. */
    unseen_environment_count: z.number().int().nonnegative(),
    /** Environments the caller sees beyond the first ROLE_ENVIRONMENT_ACCESS_LIMIT. */
    unlisted_environment_count: z.number().int().nonnegative(),
    _links: halLinks(['self', 'role']),
  })
  .meta({ id: 'RoleEnvironmentAccess' });
export type RoleEnvironmentAccessResource = z.infer<typeof roleEnvironmentAccessResource>;
