import { securityKeyFormSchema, securityKeyMessages } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';

/** spec 1 §2 "Add Security Key": a name, then the browser asks for the key. */
export function AddSecurityKeyForm({
  onAdd,
  onAdded,
}: {
  onAdd: (name: string) => Promise<unknown>;
  onAdded?: () => void;
}) {
  const form = useSchemaForm(securityKeyFormSchema, {
    defaultValues: { name: '' },
    onSubmit: async (values) => {
      await onAdd(values.name);
      form.reset();
      showToast(securityKeyMessages.added);
      onAdded?.();
    },
  });
  return (
    <Form form={form} title="Add Security Key" className="form card card-body form-card">
      <p>Name the key, then touch it when your browser asks.</p>
      <TextField label="Name" autoComplete="off" {...form.field('name')} />
      <SubmitRow>Add Security Key</SubmitRow>
    </Form>
  );
}
