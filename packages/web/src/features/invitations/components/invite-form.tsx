import { type InviteFormValues, inviteFormSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface InviteRoleOption {
  id: string;
  name: string;
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
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <Form form={form}>
      <TextField
        label="Email"
        type="email"
        autoComplete="off"
        spellCheck={false}
        error={errors.email?.message}
        {...register('email')}
      />
      <FormField label="Role" error={errors.roleId?.message}>
        {(control) => (
          <select className="select" {...control} {...register('roleId')}>
            <option value="">Select a role</option>
            {roles.map((role) => (
              <option key={role.id} value={role.id}>
                {role.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <SubmitRow>Send Invitation</SubmitRow>
    </Form>
  );
}
