import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { roleNameFormSchema } from './role-name.schema.ts';

export interface CreateRoleFormProps {
  /** Why the caller may not create roles, or null. */
  denial: string | null;
  onCreate: (name: string) => Promise<unknown>;
}

/** spec 1 §2 New Role: a name; the role is created as a platform_user role (spec 1 §9). */
export function CreateRoleForm({ denial, onCreate }: CreateRoleFormProps) {
  const form = useSchemaForm(roleNameFormSchema, {
    defaultValues: { name: '' },
    blocked: denial !== null,
    onSubmit: ({ name }) => onCreate(name),
  });

  return (
    <Form form={form} className="card card-body form" aria-label="New Role">
      <TextField label="Name" autoComplete="off" disabled={denial !== null} {...form.field('name')} />
      <SubmitRow denial={denial}>Create Role</SubmitRow>
    </Form>
  );
}
