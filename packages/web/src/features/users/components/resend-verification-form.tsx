import type { FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { useResendVerification } from '../api/use-resend-verification.ts';

/** spec 1 §8: the toast text after a mail was sent. */
export const RESEND_SUCCESS = 'Success! You should receive an email shortly.';

/** spec 1 §2: "Email verification with a Resend form". */
export function ResendVerificationForm({ userId }: { userId: string }) {
  const resend = useResendVerification(userId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    resend.mutate();
  };
  return (
    <form className="form" onSubmit={submit}>
      {resend.isSuccess ? <Banner variant="success">{RESEND_SUCCESS}</Banner> : null}
      {resend.isError ? <Banner variant="error">{resend.error.message}</Banner> : null}
      <Button type="submit" variant="secondary" size="lg" block loading={resend.isPending}>
        Resend Verification Email
      </Button>
    </form>
  );
}
