import { invitationMatchesEmail, invitationMessages } from '@berth/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { acceptInvitation } from '../../../features/invitations/api/accept-invitation.ts';
import { useInvitation } from '../../../features/invitations/api/use-invitation.ts';
import { InvitationSummary } from '../../../features/invitations/components/invitation-summary.tsx';
import { organizationKeys } from '../../../features/organizations/api/organization-keys.ts';
import { refreshOwnToken } from '../../../features/session/api/refresh-own-token.ts';
import { useSelectOrganization } from '../../../features/users/api/use-select-organization.ts';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { isApiError } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { paths, to } from '../../../lib/paths.ts';
import { writePersisted } from '../../../lib/persisted-state.ts';
import { useSession } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/**
 * spec 1 §4 "Invitation page", spec 3 "Invitation claim", contract §3.9: the mailed link
 * /claim/{invitationId}/{code}. Signed out, the invitation is shown with Log in and Sign up, which come
 * back here; signed in with the invited address, Accept joins the organization.
 */
function ClaimRoute() {
  const { inviteId = '', code = '' } = useParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { phase } = useSession();
  const invitation = useInvitation(inviteId);
  const user = useCurrentUser();
  const selectOrganization = useSelectOrganization();
  const [accepting, setAccepting] = useState(false);
  // Once accepted the invitation is gone (a refetch answers 404): the page only waits to move on.
  const [joined, setJoined] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // spec 1 §2: the page is remembered, so logging in comes back here.
  const rememberAndGo = (target: string) => {
    writePersisted('redirectPath', location.pathname);
    navigate(target);
  };

  const accept = async (organizationId: string | null) => {
    setFailure(null);
    setAccepting(true);
    try {
      await acceptInvitation(inviteId, code);
    } catch (error) {
      setFailure(messageOf(error));
      setAccepting(false);
      return;
    }
    setJoined(true);
    try {
      // contract §3.2 (a): a fresh token of one's own, so it carries the new membership.
      await refreshOwnToken();
      if (organizationId) await selectOrganization.mutateAsync(organizationId);
      // The organizations are read again even when no page shows them (as after creating one): a list
      // cached without the one joined would send Home on to the environments.
      await queryClient.invalidateQueries({ queryKey: organizationKeys.all, refetchType: 'all' });
      await queryClient.invalidateQueries();
    } catch (error) {
      // The membership exists already; the console still opens, and says what did not work.
      showToast(messageOf(error), 'error');
    }
    navigate(paths.root, { replace: true });
  };

  let body: ReactNode;
  if (joined) {
    body = <Spinner label="Joining the organization" />;
  } else if (invitation.isError) {
    body = (
      <Banner variant="error">
        {isApiError(invitation.error) && invitation.error.status === 404
          ? invitationMessages.notFound
          : invitation.error.message}
      </Banner>
    );
  } else if (phase === 'authenticated' && user.isError) {
    // Without the signed-in address the mismatch check (spec 1 §4) cannot run: no Accept until it can.
    body = (
      <div className="stack">
        <Banner variant="error">{user.error.message}</Banner>
        <Button variant="secondary" loading={user.isFetching} onClick={() => void user.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (!invitation.data || (phase === 'authenticated' && !user.data)) {
    body = <Spinner label="Loading the invitation" />;
  } else {
    const found = invitation.data;
    const ownEmail = user.data?.email ?? '';
    if (phase === 'authenticated' && !invitationMatchesEmail(found.email, ownEmail)) {
      body = (
        <div className="stack">
          <Banner variant="warning">{invitationMessages.mismatch(found.email, ownEmail)}</Banner>
          <Button variant="secondary" onClick={() => rememberAndGo(paths.logout)}>
            Log out
          </Button>
        </div>
      );
    } else if (found.expired) {
      body = (
        <Banner variant="error">
          {invitationMessages.expired(found.organizationName, found.inviterName)}
        </Banner>
      );
    } else if (phase !== 'authenticated') {
      body = (
        <div className="stack">
          <InvitationSummary invitation={found} />
          <p>Log in with {found.email} to accept, or sign up if you do not have an account yet.</p>
          <div className="auth-links">
            <Button onClick={() => rememberAndGo(paths.login)}>Log in</Button>
            {/* The invitation goes along explicitly: a remembered page would outlive an abandoned link. */}
            <Button variant="secondary" onClick={() => navigate(to.signupFromInvitation(inviteId, code))}>
              Sign up
            </Button>
          </div>
        </div>
      );
    } else {
      body = (
        <div className="stack">
          {failure ? <Banner variant="error">{failure}</Banner> : null}
          <InvitationSummary invitation={found} />
          <Button size="lg" block loading={accepting} onClick={() => accept(found.organizationId)}>
            Accept Invitation
          </Button>
        </div>
      );
    }
  }

  const organizationName = invitation.data?.organizationName;
  return (
    <AuthLayout
      title={organizationName ? `Join ${organizationName}` : 'Invitation'}
      subtitle={
        invitation.data
          ? `${invitation.data.inviterName} invited you to join as ${invitation.data.roleName}.`
          : undefined
      }
      footer={
        <div className="auth-links">
          <Link to={phase === 'authenticated' ? paths.root : paths.login}>
            {phase === 'authenticated' ? 'Back to Berth' : 'Go to login'}
          </Link>
        </div>
      }
    >
      {body}
    </AuthLayout>
  );
}

export { ClaimRoute as Component };
