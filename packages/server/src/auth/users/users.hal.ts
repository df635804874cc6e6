import type { UserResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { UserRow } from '../tokens/token.service.ts';

/**
 * A user as the auth family answers it. In an organization's lists, `managedHere` says whether that
 * organization's provisioning manages them: `external_id` (the console's lock, contract §4.1) is theirs
 * only there, not in another organization they belong to.
 */
export function toUserHal(
  user: UserRow,
  urls: FamilyUrls,
  options: { managedHere?: boolean } = {},
): UserResource {
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
    external_id: options.managedHere === false ? null : user.externalId,
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
