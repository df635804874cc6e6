import type { UserResource } from '@berth/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/**
 * contract §5.2 PATCH /users/:id `{type: "update-password", password}` with the elevated token (§3.6).
 * The server ends every other session and token of the user; this console's own tokens stay.
 */
export function useChangePassword(userId: string) {
  return useMutation({
    mutationFn: (password: string) =>
      apiRequest<UserResource>('auth', `/users/${encodeURIComponent(userId)}`, {
        method: 'PATCH',
        body: { type: 'update-password', password },
        auth: 'elevated',
      }),
  });
}
