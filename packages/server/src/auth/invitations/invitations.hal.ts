import type { InvitationResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { invitations } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type InvitationRow = typeof invitations.$inferSelect;

/** Contract §4.1 invitation; the display names travel with it so signed-out pages can show them. */
export function toInvitationHal(
  invitation: InvitationRow,
  context: { organizationId: string; organizationName: string; roleName: string },
  urls: FamilyUrls,
): InvitationResource {
  return {
    id: invitation.id,
    _type: 'invitation' as const,
    email: invitation.email,
    organization_name: context.organizationName,
    inviter_name: invitation.inviterName,
    role_name: context.roleName,
    verification_code_expires_at: iso(invitation.codeExpiresAt),
    expired: invitation.codeExpiresAt.getTime() <= Date.now(),
    created_at: iso(invitation.createdAt),
    updated_at: iso(invitation.updatedAt),
    _links: links({
      self: `${urls.auth}/invitations/${invitation.id}`,
      organization: `${urls.auth}/organizations/${context.organizationId}`,
      role: `${urls.auth}/roles/${invitation.roleId}`,
    }),
  };
}
