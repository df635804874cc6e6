import { Link, Navigate } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { ResendVerificationForm } from '../../../features/users/components/resend-verification-form.tsx';
import { getRuntimeConfig } from '../../../lib/config.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** Where the mailbox's key is: the console cannot hand out the secret of the server's start. */
const MAILBOX_HINT =
  'The local mailbox opens once this browser has followed the mailbox link Berth printed when it started.';

/** spec 1 §2: unverified users land here, with a Resend form. */
function VerifyRoute() {
  const { accessToken } = useSession();
  const user = useCurrentUser();
  const { mailboxUrl } = getRuntimeConfig();

  if (user.isError) return <Navigate to={to.error(user.error.message)} replace />;
  if (!user.data) return <FullPageSpinner label="Loading your account" />;
  if (user.data.verified) return <Navigate to={paths.root} replace />;

  // contract §3.3: the token's email claim is the fallback the verify page shows.
  const email = user.data.email || accessToken?.claims?.email || '';
  return (
    <AuthLayout
      title="Verify your email"
      subtitle={
        <>
          We sent a verification link to <span className="verify-email">{email}</span>. Open it to activate
          your account.
        </>
      }
      footer={
        <>
          <div className="auth-links">
            {mailboxUrl ? (
              <a href={mailboxUrl} target="_blank" rel="noreferrer">
                Open the local mailbox
              </a>
            ) : null}
            <Link to={paths.logout}>Log out</Link>
          </div>
          {/* The mailbox answers only a browser that holds this start's secret (issue 34). */}
          {mailboxUrl ? <p>{MAILBOX_HINT}</p> : null}
        </>
      }
    >
      <ResendVerificationForm userId={user.data.id} />
    </AuthLayout>
  );
}

export { VerifyRoute as Component };
