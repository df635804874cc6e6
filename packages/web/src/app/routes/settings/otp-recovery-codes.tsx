import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useTwoFactorUser } from '../../../features/two-factor/api/two-factor.ts';
import { OtpRecoveryCodes } from '../../../features/two-factor/components/otp-recovery-codes.tsx';
import { RequireElevation } from '../../../features/two-factor/components/require-elevation.tsx';

/** spec 1 §2 /settings/otp-recovery-codes (needs an elevated token). */
function OtpRecoveryCodesRoute() {
  const user = useTwoFactorUser();
  const configurationId = user.data?.currentOtpConfigurationId ?? null;
  return (
    <RequireElevation>
      <PageHeader
        title="Recovery codes"
        description="Single-use codes for when you lose your authenticator"
      />
      {!user.data ? (
        <Spinner label="Loading your account" />
      ) : configurationId ? (
        <OtpRecoveryCodes configurationId={configurationId} />
      ) : (
        <Banner variant="info">
          Two-factor authentication is not enabled, so there are no recovery codes.
        </Banner>
      )}
    </RequireElevation>
  );
}

export { OtpRecoveryCodesRoute as Component };
