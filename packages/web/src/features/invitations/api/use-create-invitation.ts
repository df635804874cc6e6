import type { InvitationResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromInvitationResource } from '../../../resources/invitations/invitation.hal.ts';
import { invitationKeys } from './invitation-keys.ts';

export interface NewInvitation {
  email: string;
  roleId: string;
}

/** contract §5.3 POST /roles/:id/invitations {email, origin}: the server mails the link (contract §3.9). */
export function useCreateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ email, roleId }: NewInvitation) =>
      fromInvitationResource(
        await apiRequest<InvitationResource>('auth', `/roles/${encodeURIComponent(roleId)}/invitations`, {
          method: 'POST',
          body: { email, origin: 'app' },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invitationKeys.all }),
  });
}
