import { type InviteFormValues, inviteFormSchema } from '@berth/core';
import { useEffect } from 'react';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface InviteRoleOption {
  id: string;
  name: string;
}

export interface InviteFormProps {
  /** The roles the actor may invite into (spec 1 §6). */
  roles: readonly InviteRoleOption[];
  defaultRoleId?: string;
  /** What the chosen role lets a person do, in everyday words (core's rolePlainSummary), or a wait. */
  roleSummary?: string;
  /** Told the chosen role's id (empty when none), so the page can read what it reaches. */
  onRoleChange?: (roleId: string) => void;
  onSubmit: (values: InviteFormValues) => Promise<unknown>;
}

/** spec 1 §5 "Invite: email format; a role is required", with the server's message when it refuses. */
export function InviteForm({
  roles,
  defaultRoleId = '',
  roleSummary,
  onRoleChange,
  onSubmit,
}: InviteFormProps) {
  const form = useSchemaForm(inviteFormSchema, {
    defaultValues: { email: '', roleId: defaultRoleId },
    onSubmit,
  });
  const { field } = form;
  const chosenId = form.watch('roleId');
  const chosen = roles.some((role) => role.id === chosenId);
  useEffect(() => onRoleChange?.(chosen ? chosenId : ''), [chosen, chosenId, onRoleChange]);

  return (
    <Form form={form}>
      <TextField label="Email" type="email" autoComplete="off" spellCheck={false} {...field('email')} />
      <SelectField
        label="Role"
        placeholder="Select a role"
        options={roles.map((role) => ({ value: role.id, label: role.name }))}
        // Issue 41: the chosen role's plain summary under the select, read with it by screen readers.
        hint={chosen ? roleSummary : undefined}
        {...field('roleId')}
      />
      <SubmitRow>Send Invitation</SubmitRow>
    </Form>
  );
}
