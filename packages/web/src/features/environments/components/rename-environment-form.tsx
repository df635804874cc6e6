import { renameEnvironmentSchema } from '@berth/core';
import { useId } from 'react';
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
  const acknowledgeId = useId();
  const form = useSchemaForm(renameEnvironmentSchema, {
    defaultValues: { handle: currentHandle, acknowledged: false },
    onSubmit: ({ handle }) => onRename(handle),
    successMessage: ({ handle }) => `Environment renamed to ${handle}`,
  });
  const {
    register,
    formState: { errors },
  } = form;

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
        error={errors.handle?.message}
        disabled={denial !== null}
        {...register('handle')}
      />
      <div className="field">
        <div className="checkbox-field">
          <input
            id={acknowledgeId}
            type="checkbox"
            disabled={denial !== null}
            aria-invalid={errors.acknowledged ? true : undefined}
            {...register('acknowledged')}
          />
          <label htmlFor={acknowledgeId}>
            I understand that the new handle changes the git remotes and the default endpoint hostnames of
            this environment's apps
          </label>
        </div>
        {errors.acknowledged ? <p className="field-error">{errors.acknowledged.message}</p> : null}
      </div>
      <SubmitRow denial={denial}>Rename Environment</SubmitRow>
    </Form>
  );
}
