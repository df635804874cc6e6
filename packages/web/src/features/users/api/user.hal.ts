import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 user. */
export interface UserHal extends HalResource {
  name: string;
  email: string;
  username?: string | null;
  verified: boolean;
  otp_enabled?: boolean;
  superuser?: boolean;
  read_only_impersonate?: boolean;
  external_id?: string | null;
  created_at?: string;
}

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
  createdAt: string;
}

export function fromUserHal(user: UserHal): User {
  return {
    id: idOf(user),
    name: user.name ?? '',
    email: user.email ?? '',
    username: user.username ?? '',
    verified: user.verified === true,
    otpEnabled: user.otp_enabled === true,
    superuser: user.superuser === true,
    readOnlyImpersonate: user.read_only_impersonate === true,
    externalId: user.external_id || null,
    selectedOrganizationId: linkId(user, 'selected_organization'),
    createdAt: user.created_at ?? '',
  };
}

/** contract §3.4: who may see Impersonate. */
export function canImpersonate(user: Pick<User, 'superuser' | 'readOnlyImpersonate'>): boolean {
  return user.superuser || user.readOnlyImpersonate;
}
