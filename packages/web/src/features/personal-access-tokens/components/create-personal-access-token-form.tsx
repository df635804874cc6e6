import {
  DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
  PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
  PERSONAL_ACCESS_TOKEN_SCOPES,
  type PersonalAccessTokenInput,
  personalAccessTokenInput,
  personalAccessTokenMessages,
} from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { SCOPE_LABELS } from './personal-access-token-list.tsx';

const EXPIRY_OPTIONS = PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS.map((days) => ({
  value: String(days),
  label: days === 365 ? '1 year' : `${days} days`,
}));

const SCOPE_OPTIONS = PERSONAL_ACCESS_TOKEN_SCOPES.map((scope) => ({
  value: scope,
  label: SCOPE_LABELS[scope] ?? scope,
}));

/** Generate token: a name, a scope and an expiry, checked by the rules the server applies. */
export function CreatePersonalAccessTokenForm({
  onCreate,
}: {
  onCreate: (input: PersonalAccessTokenInput) => Promise<unknown>;
}) {
  const form = useSchemaForm(personalAccessTokenInput, {
    defaultValues: { name: '', scope: 'manage', expires_in_days: DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS },
    onSubmit: async (values) => {
      await onCreate(values);
      form.reset();
      showToast(personalAccessTokenMessages.created);
    },
  });
  return (
    <Form form={form} title="Generate token" className="form card card-body form-card">
      <TextField
        label="Name"
        autoComplete="off"
        hint="What the token is for, e.g. “GitHub Actions deploys”."
        {...form.field('name')}
      />
      <SelectField
        label="Scope"
        options={SCOPE_OPTIONS}
        hint="Git pushes need Manage."
        {...form.field('scope')}
      />
      <SelectField
        label="Expiration"
        options={EXPIRY_OPTIONS}
        {...form.field('expires_in_days')}
        {...form.register('expires_in_days', { valueAsNumber: true })}
      />
      <SubmitRow>Generate token</SubmitRow>
    </Form>
  );
}
