import type { InvitationResource } from '@berth/core';
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
  /** spec 1 §3: the server derives it from the code's expiry date when it answers. */
  expired: boolean;
  createdAt: string;
  updatedAt: string;
}

export function fromInvitationResource(invitation: InvitationResource): Invitation {
  return {
    id: idOf(invitation),
    email: invitation.email,
    organizationId: linkId(invitation, 'organization'),
    roleId: linkId(invitation, 'role'),
    organizationName: invitation.organization_name,
    inviterName: invitation.inviter_name,
    roleName: invitation.role_name,
    expiresAt: invitation.verification_code_expires_at,
    expired: invitation.expired,
    createdAt: invitation.created_at,
    updatedAt: invitation.updated_at,
  };
}
