import { Link, useParams } from 'react-router';
import { OtpResetVerify } from '../../../features/two-factor/components/otp-reset-verify.tsx';
import { paths } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §2 /otp-reset-verify/{challengeId}/{verificationCode}: public confirmation of a 2FA reset. */
function OtpResetVerifyRoute() {
  const { challengeId = '', verificationCode = '' } = useParams();
  return (
    <AuthLayout
      title="Reset two-factor authentication"
      footer={
        <div className="auth-links">
          <Link to={paths.login}>Log in</Link>
        </div>
      }
    >
      <OtpResetVerify challengeId={challengeId} verificationCode={verificationCode} />
    </AuthLayout>
  );
}

export { OtpResetVerifyRoute as Component };
