import type { UserResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { UserRow } from '../tokens/token.service.ts';

export function toUserHal(user: UserRow, urls: FamilyUrls): UserResource {
  const self = `${urls.auth}/users/${user.id}`;
  return {
    id: user.id,
    _type: 'user' as const,
    name: user.name,
    email: user.email,
    username: user.email,
    verified: user.verified,
    otp_enabled: user.otpEnabled,
    superuser: user.superuser,
    read_only_impersonate: user.readOnlyImpersonate,
    external_id: user.externalId,
    public_key_fingerprint: null,
    ssh_public_key: null,
    created_at: iso(user.createdAt),
    updated_at: iso(user.updatedAt),
    _links: links({
      self,
      selected_organization: user.selectedOrganizationId
        ? `${urls.auth}/organizations/${user.selectedOrganizationId}`
        : null,
      current_otp_configuration:
        user.otpEnabled && user.currentOtpConfigurationId
          ? `${urls.auth}/otp_configurations/${user.currentOtpConfigurationId}`
          : null,
      roles: `${self}/roles`,
      ssh_keys: `${self}/ssh_keys`,
      u2f_devices: `${self}/u2f_devices`,
      email_verification_challenges: `${self}/email_verification_challenges`,
    }),
  };
}
