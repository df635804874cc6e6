import { type InviteFormInput, type InviteFormValues, inviteFormSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

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
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<InviteFormInput, unknown, InviteFormValues>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '', roleId: defaultRoleId },
  });

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
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
      <div>
        <Button type="submit" loading={isSubmitting}>
          Send Invitation
        </Button>
      </div>
    </form>
  );
}
