import { type ProfileInput, profileSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface ProfileFormProps {
  name: string;
  /** Why the name may not be changed (a provisioned account), or null. */
  denial: string | null;
  onSubmit: (values: ProfileInput) => Promise<unknown>;
}

/** spec 1 §2 /settings/profile: the user's name, checked with core's name rules. */
export function ProfileForm({ name, denial, onSubmit }: ProfileFormProps) {
  const form = useSchemaForm(profileSchema, {
    defaultValues: { name },
    onSubmit,
    blocked: (values) => denial !== null || values.name.trim() === '' || values.name === name,
  });
  const current = form.watch('name');
  return (
    <Form form={form} title="Profile" aria-label="Profile">
      <TextField label="Name" autoComplete="name" readOnly={denial !== null} {...form.field('name')} />
      <SubmitRow denial={denial} disabled={current.trim() === '' || current === name}>
        Save Changes
      </SubmitRow>
    </Form>
  );
}
