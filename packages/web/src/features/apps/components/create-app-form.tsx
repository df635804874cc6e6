import { createAppSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface CreateAppFormProps {
  stackName: string;
  environmentHandle: string;
  onSubmit: (handle: string) => Promise<unknown>;
  /** Why the caller may not create an app here (action app.create), or null. */
  denial?: string | null;
}

/** spec 3 §2 "Name your App": stack and environment read-only, and a handle (spec 2 §5). */
export function CreateAppForm({ stackName, environmentHandle, onSubmit, denial = null }: CreateAppFormProps) {
  const form = useSchemaForm(createAppSchema, {
    defaultValues: { handle: '' },
    blocked: denial !== null,
    onSubmit: ({ handle }) => onSubmit(handle),
  });

  return (
    <Form form={form}>
      <TextField label="Stack" value={stackName} readOnly />
      <TextField label="Environment" value={environmentHandle} readOnly />
      <TextField
        label="Handle"
        autoComplete="off"
        spellCheck={false}
        placeholder="my-app"
        hint="Lowercase letters, digits, periods, hyphens and underscores."
        {...form.field('handle')}
      />
      <SubmitRow size="lg" block denial={denial}>
        Create App
      </SubmitRow>
    </Form>
  );
}
