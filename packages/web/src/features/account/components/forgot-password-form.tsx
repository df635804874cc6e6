import { accountMessages, type ForgotPasswordInput, forgotPasswordSchema } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { paths } from '../../../lib/paths.ts';

export interface ForgotPasswordFormProps {
  onSubmit: (email: string) => Promise<unknown>;
}

/**
 * spec 1 §2 /forgot-password. spec 1 §8: success and `invalid_email` read the same neutral sentence, so
 * the page never tells whether an address has an account; other failures say what went wrong.
 */
export function ForgotPasswordForm({ onSubmit }: ForgotPasswordFormProps) {
  const [sent, setSent] = useState(false);
  const form = useSchemaForm(forgotPasswordSchema, {
    defaultValues: { email: '' },
    onSubmit: async ({ email }: ForgotPasswordInput) => {
      try {
        await onSubmit(email);
      } catch (error) {
        if (!isApiError(error, 'invalid_email')) throw error;
      }
      setSent(true);
    },
    failureMessage: (error) => accountMessages.resetRequestFailed(messageOf(error)),
  });
  if (sent) return <Banner variant="success">{accountMessages.resetRequested}</Banner>;
  return (
    // A plain post without JavaScript (the prerendered page): the server answers that scripts are needed.
    <Form form={form} aria-label="Reset password" method="post" action={paths.forgotPassword}>
      <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
      <SubmitRow size="lg" block>
        Send Reset Instructions
      </SubmitRow>
    </Form>
  );
}
