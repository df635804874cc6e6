import { accountMessages } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';
import { useSetOtpEnabled, useTwoFactorUser } from '../api/two-factor.ts';

/** spec 1 §2 Security Settings "2-Factor Authentication": status, Set up, Recovery codes and Disable. */
export function TwoFactorSection() {
  const user = useTwoFactorUser();
  const session = useSession();
  const setEnabled = useSetOtpEnabled(user.data?.id ?? '');
  const elevated = validElevatedToken(session) !== null;
  const enabled = user.data?.otpEnabled ?? false;

  return (
    <section className="card card-body form-card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">2-Factor Authentication</h2>
      {user.isError ? <Banner variant="error">{user.error.message}</Banner> : null}
      {user.data ? (
        <>
          <p>
            Two-factor authentication is <strong>{enabled ? 'enabled' : 'disabled'}</strong>.{' '}
            {enabled
              ? 'Logging in asks for a code from your authenticator app, or a recovery code.'
              : 'Add a second step to logging in with a code from an authenticator app.'}
          </p>
          {setEnabled.isError ? <Banner variant="error">{messageOf(setEnabled.error)}</Banner> : null}
          <div className="button-row">
            {enabled ? (
              <>
                <ButtonLink to={paths.otpRecoveryCodes} variant="secondary">
                  Recovery codes
                </ButtonLink>
                {elevated ? (
                  <ConfirmButton
                    size="md"
                    label="Disable 2FA"
                    confirmLabel="Confirm disable 2FA"
                    warning="Logging in will ask only for your password."
                    denial={null}
                    onConfirm={async () => {
                      await setEnabled.mutateAsync({ enabled: false });
                      showToast(
                        `Two-factor authentication is now disabled.${accountMessages.otherSessionsLoggedOut}`,
                      );
                    }}
                  >
                    Disable 2FA
                  </ConfirmButton>
                ) : (
                  <ButtonLink to={to.elevate(paths.settingsSecurity)} variant="danger">
                    Disable 2FA
                  </ButtonLink>
                )}
              </>
            ) : (
              <ButtonLink to={paths.otpSetup}>Set up 2FA</ButtonLink>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
