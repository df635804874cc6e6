import { type InvitationResource, isInvitationExpired, type UserResource } from '@berth/core';
import { HOST, userHal } from './fixtures.ts';

// Answers for the team screens (contract §4.1 invitation and user), typed by core's wire shapes: a fixture
// that drifts from what the server sends fails the type check.

const auth = (path: string) => `${HOST}/auth${path}`;
const TIMESTAMP = '2025-01-15T10:00:00.000Z';

export function invitationHal({
  id = 'inv-1',
  email = 'bob@example.com',
  organizationId = 'org-1',
  organizationName = 'Analytical Engines',
  roleId = 'role-2',
  roleName = 'Deployers',
  inviterName = 'Ada Lovelace',
  expiresAt = new Date(Date.now() + 86_400_000).toISOString(),
  createdAt = TIMESTAMP,
}: {
  id?: string;
  email?: string;
  organizationId?: string;
  organizationName?: string;
  roleId?: string;
  roleName?: string;
  inviterName?: string;
  expiresAt?: string;
  createdAt?: string;
} = {}): InvitationResource {
  return {
    _type: 'invitation',
    id,
    email,
    organization_name: organizationName,
    inviter_name: inviterName,
    role_name: roleName,
    verification_code_expires_at: expiresAt,
    // The server derives it from the code's expiry when it answers.
    expired: isInvitationExpired(expiresAt, new Date()),
    created_at: createdAt,
    updated_at: createdAt,
    _links: {
      self: { href: auth(`/invitations/${id}`) },
      organization: { href: auth(`/organizations/${organizationId}`) },
      role: { href: auth(`/roles/${roleId}`) },
    },
  };
}

export function memberHal(
  options: Parameters<typeof userHal>[0] & { otpEnabled?: boolean; externalId?: string },
): UserResource {
  return {
    ...userHal(options),
    otp_enabled: options.otpEnabled ?? false,
    external_id: options.externalId ?? null,
  };
}
