import { renameEnvironmentSchema } from '@berth/core';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';

export interface RenameEnvironmentFormProps {
  currentHandle: string;
  /** Why the caller may not rename (action environment.rename), or null: the tooltip. */
  denial: string | null;
  onRename: (handle: string) => Promise<unknown>;
}

/** spec 2 §2 environment settings: rename needs a valid handle and an acknowledgment. */
export function RenameEnvironmentForm({ currentHandle, denial, onRename }: RenameEnvironmentFormProps) {
  const form = useSchemaForm(renameEnvironmentSchema, {
    defaultValues: { handle: currentHandle, acknowledged: false },
    onSubmit: ({ handle }) => onRename(handle),
    successMessage: ({ handle }) => `Environment renamed to ${handle}`,
  });
  const { field } = form;

  return (
    <Form
      form={form}
      className="card card-body form section-stack"
      aria-label="Rename Environment"
      title="Rename Environment"
    >
      <TextField
        label="New handle"
        autoComplete="off"
        spellCheck={false}
        disabled={denial !== null}
        {...field('handle')}
      />
      <CheckboxField
        label="I understand that the new handle changes the git remotes and the default endpoint hostnames of this environment's apps"
        disabled={denial !== null}
        {...field('acknowledged')}
      />
      <SubmitRow denial={denial}>Rename Environment</SubmitRow>
    </Form>
  );
}
