import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Credentials } from '../../../features/session/api/create-token.ts';
import { useLogin } from '../../../features/session/api/use-login.ts';
import { AlreadyLoggedIn } from '../../../features/session/components/already-logged-in.tsx';
import { CredentialsForm } from '../../../features/session/components/credentials-form.tsx';
import { paths, safeInternalPath } from '../../../lib/paths.ts';
import { readPersisted, removePersisted } from '../../../lib/persisted-state.ts';
import { useSession } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §4 "Login", with Log In with SSO, Forgot password and a Sign up link (spec 1 §2). */
function LoginRoute() {
  const navigate = useNavigate();
  const { phase } = useSession();
  const login = useLogin();
  // Once this page signs the user in, the "already logged in" notice must not flash before navigating.
  const [submitted, setSubmitted] = useState(false);

  const submit = async (credentials: Credentials) => {
    setSubmitted(true);
    try {
      await login.mutateAsync(credentials);
    } catch (error) {
      setSubmitted(false);
      throw error;
    }
    // Step 6: the remembered page, or home.
    const target = safeInternalPath(readPersisted('redirectPath')) ?? paths.root;
    removePersisted('redirectPath');
    navigate(target, { replace: true });
  };

  return (
    <AuthLayout
      title="Log in to Berth"
      subtitle="Welcome back. Enter your credentials to continue."
      footer={
        <>
          <p>
            <Link to={paths.sso}>Log In with SSO</Link>
          </p>
          <p>
            <Link to={paths.forgotPassword}>Forgot password?</Link>
          </p>
          <p>
            Don&apos;t have an account? <Link to={paths.signup}>Sign up</Link>
          </p>
        </>
      }
    >
      {phase === 'authenticated' && !submitted ? (
        <AlreadyLoggedIn continueTo={paths.root} logoutTo={paths.logout} />
      ) : (
        <CredentialsForm submitLabel="Log In" onSubmit={submit} postTo={paths.login} />
      )}
    </AuthLayout>
  );
}

export { LoginRoute as Component };
