import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useTwoFactorUser } from '../../../features/two-factor/api/two-factor.ts';
import { OtpSetup } from '../../../features/two-factor/components/otp-setup.tsx';
import { RequireElevation } from '../../../features/two-factor/components/require-elevation.tsx';

/** spec 1 §2 /settings/otp-setup (needs an elevated token). */
function OtpSetupRoute() {
  const user = useTwoFactorUser();
  return (
    <RequireElevation>
      <PageHeader title="Set up 2FA" description="Two-factor authentication with an authenticator app" />
      {user.data ? (
        <OtpSetup userId={user.data.id} otpEnabled={user.data.otpEnabled} />
      ) : (
        <Spinner label="Loading your account" />
      )}
    </RequireElevation>
  );
}

export { OtpSetupRoute as Component };
