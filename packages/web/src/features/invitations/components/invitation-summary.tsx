import type { Invitation } from '../../../resources/invitations/invitation.hal.ts';
import './invitations.css';

/** What an invitation offers: the organization, the role, who sent it and to which address. */
export function InvitationSummary({ invitation }: { invitation: Invitation }) {
  return (
    <dl className="invitation-summary" aria-label="Invitation">
      <dt>Organization</dt>
      <dd>{invitation.organizationName}</dd>
      <dt>Role</dt>
      <dd>{invitation.roleName}</dd>
      <dt>Invited by</dt>
      <dd>{invitation.inviterName}</dd>
      <dt>Email</dt>
      <dd>{invitation.email}</dd>
    </dl>
  );
}
