import { type ResetPasswordInput, resetPasswordSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
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
  return (
    <Form form={form} aria-label="Choose a new password">
      <NewPasswordFields form={form} field={form.field} />
      <SubmitRow size="lg" block disabled={password === '' || confirmation === ''}>
        Reset Password
      </SubmitRow>
    </Form>
  );
}
