import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 invitation; the display names travel with it so signed-out pages can show them. */
export const invitationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('invitation'),
    email: z.string(),
    organization_name: z.string(),
    inviter_name: z.string(),
    role_name: z.string(),
    verification_code_expires_at: isoTimestamp,
    expired: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'organization', 'role']),
  })
  .meta({ id: 'Invitation' });
export type InvitationResource = z.infer<typeof invitationResource>;

export const invitationCollection = halCollection('invitations', invitationResource).meta({
  id: 'InvitationCollection',
});
export type InvitationCollection = z.infer<typeof invitationCollection>;
