import { useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { useVerifyEmail } from '../../../features/users/api/use-verify-email.ts';
import { ResendVerificationForm } from '../../../features/users/components/resend-verification-form.tsx';
import { paths, safeInternalPath } from '../../../lib/paths.ts';
import { readPersisted, removePersisted } from '../../../lib/persisted-state.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §8: the message when the link does not verify. */
export const VERIFY_FAILED =
  'Failed to verify your email, the token may have expired. Resend the verification email and try again.';

/** spec 1 §4 "Email verification": with the ids in the path and a user loaded, submit automatically. */
function VerifyChallengeRoute() {
  const navigate = useNavigate();
  const { verificationId = '', verificationCode = '' } = useParams();
  const user = useCurrentUser();
  const verify = useVerifyEmail();
  const submitted = useRef(false);
  const userId = user.data?.id;

  useEffect(() => {
    if (!userId || submitted.current) return;
    submitted.current = true;
    verify.mutate({ userId, challengeId: verificationId, verificationCode });
  }, [userId, verificationId, verificationCode, verify.mutate]);

  const verified = verify.isSuccess && verify.data.verified;
  useEffect(() => {
    if (!verified) return;
    // The saved page, or the default one: "/", Home (or the environments with the home flag off).
    const target = safeInternalPath(readPersisted('redirectPath')) ?? paths.root;
    removePersisted('redirectPath');
    navigate(target, { replace: true });
  }, [verified, navigate]);

  const failed = verify.isError || (verify.isSuccess && !verify.data.verified);
  return (
    <AuthLayout
      title="Verify your email"
      footer={
        <div className="auth-links">
          <Link to={paths.logout}>Log out</Link>
        </div>
      }
    >
      {user.isError ? <Banner variant="error">{user.error.message}</Banner> : null}
      {failed && userId ? (
        <div className="stack">
          <Banner variant="error">{VERIFY_FAILED}</Banner>
          <ResendVerificationForm userId={userId} />
        </div>
      ) : user.isError ? null : (
        <p className="verify-progress">
          <Spinner size="sm" decorative /> Verifying your email…
        </p>
      )}
    </AuthLayout>
  );
}

export { VerifyChallengeRoute as Component };
