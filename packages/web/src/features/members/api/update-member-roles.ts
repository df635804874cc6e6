import { useMutation } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse, serviceUrl } from '../../../lib/api-client.ts';

export interface MemberRolesChange {
  userId: string;
  /** Roles to join: POST /roles/:id/memberships. */
  addRoleIds: readonly string[];
  /** Memberships to end: DELETE /memberships/:id. */
  removeMembershipIds: readonly string[];
}

/**
 * spec 1 §4 Role editing, saved as contract §5.3 calls: a membership per added role, a delete per removed
 * one. Every call is made; spec 1 §8: the failures' messages are collected and thrown joined by commas.
 */
export async function updateMemberRoles(change: MemberRolesChange): Promise<void> {
  const userUrl = serviceUrl('auth', `/users/${encodeURIComponent(change.userId)}`);
  const results = await Promise.allSettled([
    ...change.addRoleIds.map((roleId) =>
      apiRequest<unknown>('auth', `/roles/${encodeURIComponent(roleId)}/memberships`, {
        method: 'POST',
        body: { user_url: userUrl },
      }),
    ),
    ...change.removeMembershipIds.map((membershipId) =>
      apiRequest<EmptyResponse>('auth', `/memberships/${encodeURIComponent(membershipId)}`, {
        method: 'DELETE',
      }),
    ),
  ]);
  const failures = results
    .filter((result) => result.status === 'rejected')
    .map((result) => (result.reason instanceof Error ? result.reason.message : String(result.reason)));
  if (failures.length > 0) throw new Error(failures.join(', '));
}

/** The caller reloads the memberships afterwards, whether all, some or none of the calls succeeded. */
export function useUpdateMemberRoles() {
  return useMutation({ mutationFn: updateMemberRoles });
}
