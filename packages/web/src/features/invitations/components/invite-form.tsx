import { type InviteFormValues, inviteFormSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface InviteRoleOption {
  id: string;
  name: string;
  /** What the role lets a person do, in everyday words (core's rolePlainSummary). */
  summary: readonly string[];
}

export interface InviteFormProps {
  /** The roles the actor may invite into (spec 1 §6). */
  roles: readonly InviteRoleOption[];
  defaultRoleId?: string;
  onSubmit: (values: InviteFormValues) => Promise<unknown>;
}

/** spec 1 §5 "Invite: email format; a role is required", with the server's message when it refuses. */
export function InviteForm({ roles, defaultRoleId = '', onSubmit }: InviteFormProps) {
  const form = useSchemaForm(inviteFormSchema, {
    defaultValues: { email: '', roleId: defaultRoleId },
    onSubmit,
  });
  const { field } = form;
  const chosen = roles.find((role) => role.id === form.watch('roleId'));

  return (
    <Form form={form}>
      <TextField label="Email" type="email" autoComplete="off" spellCheck={false} {...field('email')} />
      <SelectField
        label="Role"
        placeholder="Select a role"
        options={roles.map((role) => ({ value: role.id, label: role.name }))}
        // Issue 41: the chosen role's plain summary under the select, read with it by screen readers.
        hint={chosen ? chosen.summary.join(' ') : undefined}
        {...field('roleId')}
      />
      <SubmitRow>Send Invitation</SubmitRow>
    </Form>
  );
}
