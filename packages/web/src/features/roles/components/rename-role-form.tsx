import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';
import { roleNameFormSchema } from './role-name.schema.ts';

export interface RenameRoleFormProps {
  currentName: string;
  /** Why the caller may not rename (not an owner or role admin, a provisioned role), or null. */
  denial: string | null;
  onRename: (name: string) => Promise<unknown>;
}

/** spec 1 §5 Role rename: disabled if unchanged or if the user cannot manage. */
export function RenameRoleForm({ currentName, denial, onRename }: RenameRoleFormProps) {
  const form = useSchemaForm(roleNameFormSchema, {
    defaultValues: { name: currentName },
    blocked: ({ name }) => denial !== null || name.trim() === currentName,
    onSubmit: ({ name }) => onRename(name),
  });
  const unchanged = form.watch('name').trim() === currentName;

  return (
    <Form
      form={form}
      className="card card-body form section-stack"
      aria-label="Rename Role"
      title="Rename Role"
    >
      <TextField label="Role name" autoComplete="off" disabled={denial !== null} {...form.field('name')} />
      <SubmitRow denial={denial} disabled={unchanged}>
        Save
      </SubmitRow>
    </Form>
  );
}
