import { type InvitationResource, isInvitationExpired } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** spec 1 §3 invitation (contract §4.1) as the console reads it: the team screens and the claim page. */
export interface Invitation {
  id: string;
  email: string;
  organizationId: string | null;
  roleId: string | null;
  organizationName: string;
  inviterName: string;
  roleName: string;
  expiresAt: string;
  /** spec 1 §3: derived from the verification code's expiry date, at the time it is read. */
  expired: boolean;
  createdAt: string;
  updatedAt: string;
}

export function fromInvitationResource(invitation: InvitationResource, now: Date = new Date()): Invitation {
  const expiresAt = invitation.verification_code_expires_at;
  return {
    id: idOf(invitation),
    email: invitation.email,
    organizationId: linkId(invitation, 'organization'),
    roleId: linkId(invitation, 'role'),
    organizationName: invitation.organization_name,
    inviterName: invitation.inviter_name,
    roleName: invitation.role_name,
    expiresAt,
    expired: isInvitationExpired(expiresAt, now),
    createdAt: invitation.created_at,
    updatedAt: invitation.updated_at,
  };
}
