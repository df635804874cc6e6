import { accountMessages, type ChangePasswordInput, changePasswordSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

export interface ChangePasswordFormProps {
  /** Sends the new password (with the elevated token); the server logs the other sessions out. */
  onSubmit: (password: string) => Promise<unknown>;
}

/** spec 1 §2 Security Settings, Change Password: the two entries must match, and empty ones disable submit. */
export function ChangePasswordForm({ onSubmit }: ChangePasswordFormProps) {
  const form = useSchemaForm(changePasswordSchema, {
    defaultValues: { password: '', passwordConfirmation: '' },
    onSubmit: async (values: ChangePasswordInput) => {
      await onSubmit(values.password);
      form.reset();
    },
    successMessage: () => `${accountMessages.passwordChanged}${accountMessages.otherSessionsLoggedOut}`,
    blocked: (values) => values.password === '' || values.passwordConfirmation === '',
  });
  const [password, confirmation] = form.watch(['password', 'passwordConfirmation']);
  return (
    <Form form={form} title="Change Password" aria-label="Change Password">
      <NewPasswordFields form={form} field={form.field} />
      <SubmitRow disabled={password === '' || confirmation === ''}>Change Password</SubmitRow>
    </Form>
  );
}
