import { createOrganizationSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface CreateOrganizationFormProps {
  defaultName?: string;
  submitLabel?: string;
  onSubmit: (name: string) => Promise<unknown>;
}

/** spec 1 §5 "Create Organization: name not blank", with the server's message when it refuses. */
export function CreateOrganizationForm({
  defaultName = '',
  submitLabel = 'Create Organization',
  onSubmit,
}: CreateOrganizationFormProps) {
  const form = useSchemaForm(createOrganizationSchema, {
    defaultValues: { name: defaultName },
    onSubmit: ({ name }) => onSubmit(name),
  });

  return (
    <Form form={form}>
      <TextField label="Organization name" autoComplete="organization" {...form.field('name')} />
      <SubmitRow size="lg" block>
        {submitLabel}
      </SubmitRow>
    </Form>
  );
}
