import { type ResetPasswordInput, resetPasswordSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { useInBrowser } from '../../../lib/use-in-browser.ts';
import { NewPasswordFields } from './new-password-fields.tsx';

export interface ResetPasswordFormProps {
  onSubmit: (password: string) => Promise<unknown>;
}

/** spec 1 §2 /password/update: the new password and its confirmation, with the spec's rules and messages. */
export function ResetPasswordForm({ onSubmit }: ResetPasswordFormProps) {
  const form = useSchemaForm(resetPasswordSchema, {
    defaultValues: { password: '', passwordConfirmation: '' },
    onSubmit: (values: ResetPasswordInput) => onSubmit(values.password),
    blocked: (values) => values.password === '' || values.passwordConfirmation === '',
  });
  const [password, confirmation] = form.watch(['password', 'passwordConfirmation']);
  // The page is prerendered (issue 40): without JavaScript it posts to its own address, and its button
  // must be pressable there.
  const inBrowser = useInBrowser();
  return (
    <Form form={form} aria-label="Choose a new password" method="post">
      <NewPasswordFields form={form} field={form.field} />
      <SubmitRow size="lg" block disabled={inBrowser && (password === '' || confirmation === '')}>
        Reset Password
      </SubmitRow>
    </Form>
  );
}
