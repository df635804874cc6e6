import { z } from 'zod';
import { halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 permission: a role's scope on an environment (embedded in every environment). */
export const permissionResource = z
  .strictObject({
    id: halId,
    _type: z.literal('permission'),
    scope: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account', 'role']),
  })
  .meta({ id: 'Permission' });
export type PermissionResource = z.infer<typeof permissionResource>;
