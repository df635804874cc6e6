import { OPERATION_CATALOG } from '@berth/core';
import './apps.css';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface DeployFormProps {
  denial: string | null;
  onDeploy: (gitRef: string) => Promise<unknown>;
}

/** A deploy of a git ref (contract §6 `deploy` with `git_ref`); the guided deploy is a later issue. */
export function DeployForm({ denial, onDeploy }: DeployFormProps) {
  // The deploy body's own schema from core's operation catalog: the server validates the same.
  const form = useSchemaForm(OPERATION_CATALOG.app.types.deploy.body, {
    defaultValues: { git_ref: 'main' },
    blocked: denial !== null,
    onSubmit: (values) => onDeploy(values.git_ref || 'main'),
  });
  const gitRef = form.watch('git_ref')?.trim() || 'main';

  return (
    <Form form={form} className="card card-body form deploy-form" aria-label="Deploy">
      <TextField
        label="Git Ref"
        autoComplete="off"
        spellCheck={false}
        hint="A branch, tag or commit pushed to the app's git remote."
        {...form.field('git_ref')}
      />
      <SubmitRow denial={denial}>Deploy {gitRef}</SubmitRow>
    </Form>
  );
}
