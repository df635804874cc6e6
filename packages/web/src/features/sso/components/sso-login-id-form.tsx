import { ssoLoginIdForm, type SsoLoginIdForm as Values } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

/**
 * spec 1 §5 "SSO login ID": a vanity name members type on /sso instead of the organization id (the
 * `handle`); the update button is disabled while it is empty or unchanged.
 */
export function SsoLoginIdForm({
  handle,
  denial,
  onSubmit,
}: {
  handle: string | null;
  denial: string | null;
  onSubmit: (values: Values) => Promise<unknown>;
}) {
  const unchanged = (value: string) => value.trim() === '' || value.trim() === (handle ?? '');
  const form = useSchemaForm(ssoLoginIdForm, {
    defaultValues: { handle: handle ?? '' },
    blocked: (values) => denial !== null || unchanged(values.handle),
    onSubmit,
  });
  const current = form.watch('handle');
  return (
    <Form form={form} title="SSO login ID" aria-label="SSO login ID">
      <TextField
        label="SSO login ID"
        autoComplete="off"
        hint="Letters, digits, hyphens and underscores. Members may enter it on the SSO login page."
        disabled={denial !== null}
        {...form.field('handle')}
      />
      <SubmitRow denial={denial} disabled={unchanged(current)}>
        Update SSO login ID
      </SubmitRow>
    </Form>
  );
}
