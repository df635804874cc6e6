import { impersonationInput } from '@berth/core';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { impersonate, reloadConsole } from '../api/impersonation.ts';

/**
 * spec 1 §6: staff impersonation. A superuser may tick write access (scope manage); otherwise, and for
 * read-only impersonators always, the session is read-only.
 */
export function ImpersonationForm({ mayWrite }: { mayWrite: boolean }) {
  const form = useSchemaForm(impersonationInput, {
    defaultValues: { email: '', write: false },
    onSubmit: async (values) => {
      await impersonate({ ...values, write: mayWrite && values.write });
      reloadConsole('/');
    },
  });
  return (
    <Form form={form} title="Impersonate a user" className="form card card-body form-card">
      <TextField label="Email" type="email" autoComplete="off" {...form.field('email')} />
      {mayWrite ? (
        <CheckboxField label="Write access (scope manage)" {...form.register('write')} />
      ) : (
        <p className="field-hint">You may impersonate read-only.</p>
      )}
      <SubmitRow>Impersonate</SubmitRow>
    </Form>
  );
}
