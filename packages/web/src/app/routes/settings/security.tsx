import { scimMessages } from '@berth/core';
import { Navigate, useNavigate } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useChangePassword } from '../../../features/account/api/use-change-password.ts';
import {
  useCancelEmailChange,
  useEmailChanges,
  useRequestEmailChange,
} from '../../../features/account/api/use-email-changes.ts';
import { ChangeEmailSection } from '../../../features/account/components/change-email-section.tsx';
import { ChangePasswordForm } from '../../../features/account/components/change-password-form.tsx';
import { SecurityKeysSection } from '../../../features/security-keys/components/security-keys-section.tsx';
import { SessionsSection } from '../../../features/sessions/components/sessions-section.tsx';
import { TwoFactorSection } from '../../../features/two-factor/components/two-factor-section.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { sessionStore, useSession, validElevatedToken } from '../../../lib/session-store.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 1 §2 /settings/security: Change Password, Change Email, 2FA and security keys, and logging out the
 * other sessions. spec 1 §6: the page needs reauthentication, so without a valid elevated token the user
 * re-enters their credentials (/elevate) and comes back here.
 */
function SecurityRoute() {
  const session = useSession();
  const navigate = useNavigate();
  const elevated = validElevatedToken(session) !== null;
  const { user } = useConsoleContext();
  const userId = user?.id ?? '';
  const changePassword = useChangePassword(userId);
  const emailChanges = useEmailChanges(userId, elevated);
  const requestEmailChange = useRequestEmailChange(userId);
  const cancelEmailChange = useCancelEmailChange(userId);

  if (!elevated) return <Navigate to={to.elevate(paths.settingsSecurity)} replace />;

  /** The elevated token may lapse while the page is open: ask for the password again, then come back. */
  const stillElevated = () => {
    if (validElevatedToken(sessionStore.getState())) return true;
    navigate(to.elevate(paths.settingsSecurity));
    return false;
  };

  return (
    <>
      <PageHeader title="Security Settings" description={user?.email} />
      <div className="section-stack">
        <div className="card card-body form-card">
          <ChangePasswordForm
            onSubmit={async (password) => {
              if (!stillElevated()) return;
              await changePassword.mutateAsync(password);
            }}
          />
        </div>
        <div className="card card-body form-card">
          <ChangeEmailSection
            currentEmail={user?.email ?? ''}
            pending={emailChanges.data}
            pendingError={emailChanges.error}
            onRequest={async (email) => {
              if (!stillElevated()) return;
              await requestEmailChange.mutateAsync(email);
            }}
            onCancel={(challengeId) => cancelEmailChange.mutateAsync(challengeId)}
            denial={user?.externalId ? scimMessages.emailManaged : null}
          />
        </div>
        <TwoFactorSection />
        <SecurityKeysSection />
        <SessionsSection />
      </div>
    </>
  );
}

export { SecurityRoute as Component };
