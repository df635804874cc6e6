import type { UserResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.1 user as the console reads it (the signed-in user, an organization's members). */
export interface User {
  id: string;
  name: string;
  email: string;
  username: string;
  verified: boolean;
  otpEnabled: boolean;
  superuser: boolean;
  readOnlyImpersonate: boolean;
  externalId: string | null;
  selectedOrganizationId: string | null;
  /** contract §4.1: the OTP configuration in force (its id reads the recovery codes), or null. */
  currentOtpConfigurationId: string | null;
  createdAt: string;
}

/** An empty external id reads as none. */
export function fromUserResource(user: UserResource): User {
  return {
    id: idOf(user),
    name: user.name,
    email: user.email,
    username: user.username,
    verified: user.verified,
    otpEnabled: user.otp_enabled,
    superuser: user.superuser,
    readOnlyImpersonate: user.read_only_impersonate,
    externalId: user.external_id || null,
    selectedOrganizationId: linkId(user, 'selected_organization'),
    currentOtpConfigurationId: linkId(user, 'current_otp_configuration'),
    createdAt: user.created_at,
  };
}

/** contract §3.4: who may see Impersonate. */
export function canImpersonate(user: Pick<User, 'superuser' | 'readOnlyImpersonate'>): boolean {
  return user.superuser || user.readOnlyImpersonate;
}
