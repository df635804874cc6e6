import { z } from 'zod';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { useResendVerification } from '../api/use-resend-verification.ts';

/** spec 1 §8: the toast text after a mail was sent. */
export const RESEND_SUCCESS = 'Success! You should receive an email shortly.';

/** The form has no fields: it only asks the server to send the mail again. */
const noFields = z.object({});

/** spec 1 §2: "Email verification with a Resend form". */
export function ResendVerificationForm({ userId }: { userId: string }) {
  const resend = useResendVerification(userId);
  const form = useSchemaForm(noFields, {
    defaultValues: {},
    onSubmit: () => resend.mutateAsync(),
    successMessage: () => RESEND_SUCCESS,
  });
  return (
    <Form form={form}>
      <SubmitRow variant="secondary" size="lg" block>
        Resend Verification Email
      </SubmitRow>
    </Form>
  );
}
