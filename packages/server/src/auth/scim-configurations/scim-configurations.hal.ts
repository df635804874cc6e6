import { SCIM_BASE_PATH, type ScimConfigurationResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { ScimConfigurationRow } from './scim-configurations.service.ts';

/** contract §4.1 scim_configuration: ids as bare strings, `token_id` "" without a token; never the token. */
export function toScimConfigurationHal(
  row: ScimConfigurationRow,
  urls: FamilyUrls,
): ScimConfigurationResource {
  return {
    id: row.id,
    _type: 'scim_configuration' as const,
    organization_id: row.organizationId,
    default_role_id: row.defaultRoleId,
    token_id: row.tokenId ?? '',
    unique_identifier: row.uniqueIdentifier,
    token_created_at: iso(row.tokenCreatedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.auth}/scim_configurations/${row.id}`,
      organization: `${urls.auth}/organizations/${row.organizationId}`,
      default_role: `${urls.auth}/roles/${row.defaultRoleId}`,
      // What the identity provider is given as the SCIM base URL.
      scim_base: `${urls.app}${SCIM_BASE_PATH}`,
    }),
  };
}
