import { type SshKeyInput, sshKeyInput, sshKeyMessages } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';

const SSH_KEY_HINT =
  'Paste one public key, e.g. the contents of ~/.ssh/id_ed25519.pub. Accepted: ed25519, ECDSA, RSA of 2048 bits or more.';

/** spec 1 §2 "Add SSH key": a name and the public key; the server checks the key and answers why not. */
export function AddSshKeyForm({ onAdd }: { onAdd: (input: SshKeyInput) => Promise<unknown> }) {
  const form = useSchemaForm(sshKeyInput, {
    defaultValues: { name: '', ssh_public_key: '' },
    onSubmit: async (values) => {
      await onAdd(values);
      form.reset();
      showToast(sshKeyMessages.added);
    },
  });
  const { error: keyError, ...keyField } = form.field('ssh_public_key');
  return (
    <Form form={form} title="Add SSH key" className="form card card-body form-card">
      <TextField label="Name" autoComplete="off" {...form.field('name')} />
      <FormField label="Public key" error={keyError} hint={SSH_KEY_HINT}>
        {(control) => <textarea className="input" rows={4} spellCheck={false} {...control} {...keyField} />}
      </FormField>
      <SubmitRow>Add SSH key</SubmitRow>
    </Form>
  );
}
