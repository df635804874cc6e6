import type { SamlConfigurationResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import { certificateFingerprint } from './idp-metadata.ts';
import type { SamlConfigurationRow } from './saml-configurations.service.ts';

/** The addresses an organization's IdP is given (spec 1 §7: built from the auth host). */
export function serviceProviderUrls(urls: FamilyUrls, organizationId: string) {
  const base = `${urls.auth}/organizations/${organizationId}/saml`;
  return {
    /** The SP's entity ID and audience: where its metadata is. */
    entityId: `${base}/metadata`,
    metadata: `${base}/metadata`,
    acs: `${base}/consume`,
    login: `${base}/login`,
  };
}

export function toSamlConfigurationHal(
  row: SamlConfigurationRow,
  urls: FamilyUrls,
): SamlConfigurationResource {
  const sp = serviceProviderUrls(urls, row.organizationId);
  return {
    id: row.id,
    _type: 'saml_configuration' as const,
    entity_id: row.entityId,
    sign_in_url: row.signInUrl,
    sign_out_url: row.signOutUrl ?? '',
    name_format: row.nameFormat ?? '',
    certificate: row.certificate,
    certificate_fingerprint: certificateFingerprint(row.certificate),
    certificate_fingerprint_algo: 'sha256',
    aptible_certificate: row.spCertificate,
    aptible_private_key: '',
    metadata_url: row.metadataUrl,
    handle: row.handle,
    jit_enabled: row.jitEnabled,
    default_role_id: row.defaultRoleId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.auth}/saml_configurations/${row.id}`,
      organization: `${urls.auth}/organizations/${row.organizationId}`,
      sso_login: `${urls.auth}/organizations/${row.handle ?? row.organizationId}/saml/login`,
      sp_metadata: sp.metadata,
      acs: sp.acs,
      default_role: row.defaultRoleId ? `${urls.auth}/roles/${row.defaultRoleId}` : null,
    }),
  };
}
