import { useNavigate, useSearchParams } from 'react-router';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import type { Credentials } from '../../../features/session/api/create-token.ts';
import { useElevate } from '../../../features/session/api/use-elevate.ts';
import { CredentialsForm } from '../../../features/session/components/credentials-form.tsx';
import { useCurrentUser } from '../../../features/users/api/use-user.ts';
import { paths, safeInternalPath } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §2 "Elevation": email read-only, password, 2FA code if required, then back to ?redirect=. */
function ElevateRoute() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useCurrentUser();
  const elevate = useElevate();
  const target = safeInternalPath(params.get('redirect')) ?? paths.root;

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
