import { accountMessages } from '@berth/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { useResetPassword } from '../../../features/account/api/use-password-reset.ts';
import { ResetPasswordForm } from '../../../features/account/components/reset-password-form.tsx';
import { paths } from '../../../lib/paths.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** spec 1 §2 /password/update/{challengeId}/{verificationCode}: choose a new password from the mailed link (public). */
function PasswordUpdateRoute() {
  const { challengeId = '', verificationCode = '' } = useParams();
  const reset = useResetPassword();
  const [done, setDone] = useState(false);
  return (
    <AuthLayout
      title="Choose a new password"
      footer={
        <p>
          Link expired? <Link to={paths.forgotPassword}>Ask for a new one</Link>
        </p>
      }
    >
      {done ? (
        <>
          <Banner variant="success">{accountMessages.passwordReset}</Banner>
          <ButtonLink to={paths.login} size="lg" block>
            Log In
          </ButtonLink>
        </>
      ) : (
        <ResetPasswordForm
          onSubmit={async (password) => {
            await reset.mutateAsync({ challengeId, verificationCode, password });
            // The server ended every session of the account, this browser's too.
            if (sessionStore.getState().phase === 'authenticated') sessionStore.reset();
            setDone(true);
          }}
        />
      )}
    </AuthLayout>
  );
}

export { PasswordUpdateRoute as Component };
