import { Link } from 'react-router';
import { useRequestPasswordReset } from '../../../features/account/api/use-password-reset.ts';
import { ForgotPasswordForm } from '../../../features/account/components/forgot-password-form.tsx';
import { paths } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §2 /forgot-password: ask for a reset link by email (public). */
function ForgotPasswordRoute() {
  const request = useRequestPasswordReset();
  return (
    <AuthLayout
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we will send you a link to choose a new password."
      footer={
        <p>
          Remembered it? <Link to={paths.login}>Log in</Link>
        </p>
      }
    >
      <ForgotPasswordForm onSubmit={(email) => request.mutateAsync(email)} />
    </AuthLayout>
  );
}

export { ForgotPasswordRoute as Component };
