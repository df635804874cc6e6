import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { permissionResource } from '../permissions/permission.hal.ts';

/**
 * Contract §4.3 account (an environment on the wire). The container, domain and size totals are sent
 * where the server computed them (the detail and the list), and the permissions stay embedded even with
 * `no_embed`.
 */
export const environmentResource = z
  .strictObject({
    id: halId,
    _type: z.literal('account'),
    handle: z.string(),
    organization_id: z.string(),
    type: z.string(),
    activated: z.boolean(),
    onboarding_status: z.string(),
    sweetness_stack: z.string(),
    total_app_count: z.number().int(),
    total_database_count: z.number().int(),
    container_count: z.number().int().optional(),
    app_container_count: z.number().int().optional(),
    database_container_count: z.number().int().optional(),
    domain_count: z.number().int().optional(),
    total_disk_size: z.number().optional(),
    total_backup_size: z.number().optional(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'stack', 'organization', 'apps', 'databases', 'operations', 'permissions']),
    _embedded: z.strictObject({ permissions: z.array(permissionResource) }),
  })
  .meta({ id: 'Environment' });
export type EnvironmentResource = z.infer<typeof environmentResource>;

export const environmentCollection = halCollection('accounts', environmentResource).meta({
  id: 'EnvironmentCollection',
});
export type EnvironmentCollection = z.infer<typeof environmentCollection>;
