import { CLI_TOKEN_DEFAULT_SECONDS, CLI_TOKEN_DURATIONS, cliTokenRequestForm } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface CliTokenRequestFormProps {
  /** The organization to offer (the selected one when signed in), or ''. */
  organization: string;
  /** Starts the SSO login for a token of that lifetime. */
  onRequest: (organization: string, durationSeconds: number) => void;
}

/** spec 3 "CLI token": the organization to sign in through, and how long the token lasts (a week by default). */
export function CliTokenRequestForm({ organization, onRequest }: CliTokenRequestFormProps) {
  const form = useSchemaForm(cliTokenRequestForm, {
    defaultValues: { organization, duration: String(CLI_TOKEN_DEFAULT_SECONDS) },
    onSubmit: (values) => onRequest(values.organization, Number(values.duration)),
  });
  return (
    <Form form={form} aria-label="CLI SSO Token">
      <TextField
        label="Organization"
        hint="Its ID, or the SSO login ID your Account Owner set."
        autoComplete="off"
        {...form.field('organization')}
      />
      <SelectField
        label="Token lifetime"
        options={CLI_TOKEN_DURATIONS.map((option) => ({
          value: String(option.seconds),
          label: option.label,
        }))}
        {...form.field('duration')}
      />
      <SubmitRow block>Log in with SSO</SubmitRow>
    </Form>
  );
}
