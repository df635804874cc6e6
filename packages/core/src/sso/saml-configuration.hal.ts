import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.1 saml_configuration: what the IdP's metadata said, the SP certificate, the handle, and
 * Berth's just-in-time provisioning settings (`jit_enabled`, `default_role_id`).
 */
export const samlConfigurationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('saml_configuration'),
    entity_id: z.string(),
    sign_in_url: z.string(),
    sign_out_url: z.string(),
    name_format: z.string(),
    certificate: z.string(),
    certificate_fingerprint: z.string(),
    certificate_fingerprint_algo: z.string(),
    aptible_certificate: z.string(),
    /** Typed by the console, never sent: always "". */
    aptible_private_key: z.literal(''),
    metadata_url: z.string().nullable(),
    handle: z.string().nullable(),
    jit_enabled: z.boolean(),
    default_role_id: z.string().nullable(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'sso_login', 'sp_metadata', 'acs'], ['default_role']),
  })
  .meta({ id: 'SamlConfiguration' });
export type SamlConfigurationResource = z.infer<typeof samlConfigurationResource>;

export const samlConfigurationCollection = halCollection(
  'saml_configurations',
  samlConfigurationResource,
).meta({ id: 'SamlConfigurationCollection' });
export type SamlConfigurationCollection = z.infer<typeof samlConfigurationCollection>;
