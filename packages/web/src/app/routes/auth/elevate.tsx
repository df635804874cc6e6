import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import type { Credentials } from '../../../features/session/api/create-token.ts';
import { useElevate } from '../../../features/session/api/use-elevate.ts';
import { useSessionElevation } from '../../../features/session/api/use-session-elevation.ts';
import { CredentialsForm } from '../../../features/session/components/credentials-form.tsx';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { paths, safeInternalPath } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/**
 * spec 1 §2 "Elevation": email read-only, password, 2FA code if required, then back to ?redirect=. The
 * session's sudo window (issue 41) is tried first: while it answers the page shows a spinner, not the form,
 * and when it gives a token the user goes straight on.
 */
function ElevateRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const elevate = useElevate();
  const fromWindow = useSessionElevation();
  const target = safeInternalPath(params.get('redirect')) ?? paths.root;

  // A success cached from an earlier visit may be a lapsed token: only this visit's answer counts.
  if (fromWindow.isSuccess && fromWindow.isFetchedAfterMount) return <Navigate to={target} replace />;
  if (fromWindow.fetchStatus === 'fetching') return <FullPageSpinner label="Checking your session" />;
  if (!user.data) return <FullPageSpinner label="Loading your account" />;

  const submit = async (credentials: Credentials) => {
    await elevate.mutateAsync(credentials);
    navigate(target, { replace: true });
  };

  return (
    <AuthLayout
      title="Confirm your identity"
      subtitle="This page changes security settings, so enter your password again."
    >
      <CredentialsForm
        submitLabel="Confirm"
        email={user.data.email}
        withOtp={user.data.otpEnabled}
        onSubmit={submit}
      />
    </AuthLayout>
  );
}

export { ElevateRoute as Component };
