import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.1 scim_configuration: the organization, the default role, the id of the current token
 * (`""` when none) and the unique identifier. `_links.scim_base` (ours) is the URL to give the identity
 * provider; the token itself is only ever in the answer that made it.
 */
export const scimConfigurationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('scim_configuration'),
    organization_id: z.string(),
    default_role_id: z.string(),
    token_id: z.string(),
    unique_identifier: z.string(),
    /** When the current token was made; null when there is none. */
    token_created_at: isoTimestamp.nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'default_role', 'scim_base']),
  })
  .meta({ id: 'ScimConfiguration' });
export type ScimConfigurationResource = z.infer<typeof scimConfigurationResource>;

export const scimConfigurationCollection = halCollection(
  'scim_configurations',
  scimConfigurationResource,
).meta({ id: 'ScimConfigurationCollection' });
export type ScimConfigurationCollection = z.infer<typeof scimConfigurationCollection>;

/** contract §5.4: the answer of `generate_token`, the one time the token is shown. */
export const generatedScimToken = z
  .strictObject({
    token: z.string().describe('The bearer token for /scim/v2. It is never shown again.'),
  })
  .meta({ id: 'GeneratedScimToken' });
export type GeneratedScimToken = z.infer<typeof generatedScimToken>;
