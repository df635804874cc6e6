import { isInvitationExpired } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 invitation. */
export interface InvitationHal extends HalResource {
  email: string;
  organization_name?: string;
  inviter_name?: string;
  role_name?: string;
  verification_code_expires_at?: string | null;
  created_at?: string;
  updated_at?: string;
}

/** spec 1 §3 invitation. */
export interface Invitation {
  id: string;
  email: string;
  organizationId: string | null;
  roleId: string | null;
  organizationName: string;
  inviterName: string;
  roleName: string;
  expiresAt: string;
  /** spec 1 §3: derived from the verification code's expiry date. */
  expired: boolean;
  createdAt: string;
  updatedAt: string;
}

export function fromInvitationHal(invitation: InvitationHal, now: Date = new Date()): Invitation {
  const expiresAt = invitation.verification_code_expires_at ?? '';
  return {
    id: idOf(invitation),
    email: invitation.email ?? '',
    organizationId: linkId(invitation, 'organization'),
    roleId: linkId(invitation, 'role'),
    organizationName: invitation.organization_name ?? '',
    inviterName: invitation.inviter_name ?? '',
    roleName: invitation.role_name ?? '',
    expiresAt,
    expired: isInvitationExpired(expiresAt, now),
    createdAt: invitation.created_at ?? '',
    updatedAt: invitation.updated_at ?? '',
  };
}
