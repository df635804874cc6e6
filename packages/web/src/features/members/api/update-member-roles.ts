import { useMutation } from '@tanstack/react-query';
import { apiRequest, type EmptyResponse, serviceUrl } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';

export interface MemberRolesChange {
  userId: string;
  /** Roles to join: POST /roles/:id/memberships. */
  addRoleIds: readonly string[];
  /** Memberships to end: DELETE /memberships/:id. */
  removeMembershipIds: readonly string[];
}

/** spec 1 §8: "Membership updates collect failure messages and throw them joined by commas". */
async function settleAll(calls: readonly (() => Promise<unknown>)[]): Promise<string[]> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  return results.filter((result) => result.status === 'rejected').map((result) => messageOf(result.reason));
}

/**
 * spec 1 §4 Role editing, saved as contract §5.3 calls: a membership per added role, then a delete per
 * removed one. The deletes wait for every add to succeed: the server refuses to delete a member's last
 * role, so a swap (one role for another) must have its new role before the old one goes.
 * The failures' messages are thrown joined by commas (spec 1 §8).
 */
export async function updateMemberRoles(change: MemberRolesChange): Promise<void> {
  const userUrl = serviceUrl('auth', `/users/${encodeURIComponent(change.userId)}`);
  const addFailures = await settleAll(
    change.addRoleIds.map(
      (roleId) => () =>
        apiRequest<unknown>('auth', `/roles/${encodeURIComponent(roleId)}/memberships`, {
          method: 'POST',
          body: { user_url: userUrl },
        }),
    ),
  );
  if (addFailures.length > 0) throw new Error(addFailures.join(', '));
  const removeFailures = await settleAll(
    change.removeMembershipIds.map(
      (membershipId) => () =>
        apiRequest<EmptyResponse>('auth', `/memberships/${encodeURIComponent(membershipId)}`, {
          method: 'DELETE',
        }),
    ),
  );
  if (removeFailures.length > 0) throw new Error(removeFailures.join(', '));
}

/** The caller reloads the memberships afterwards, whether all, some or none of the calls succeeded. */
export function useUpdateMemberRoles() {
  return useMutation({ mutationFn: updateMemberRoles });
}
