import './certificates.css';
import { type CreateCertificateInput, createCertificateSchema } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';

export interface CreateCertificateFormProps {
  /** Why the caller may not upload (action certificate.create: sensitive, spec 2 §6), or null. */
  denial: string | null;
  onSubmit: (input: CreateCertificateInput) => Promise<unknown>;
}

/**
 * spec 2 §2 certificate create page: paste the PEM certificate (with its chain) and its private key.
 * Empty fields get the spec's messages (core); the server's 422 message is shown as it is.
 */
export function CreateCertificateForm({ denial, onSubmit }: CreateCertificateFormProps) {
  const form = useSchemaForm(createCertificateSchema, {
    defaultValues: { certificate_body: '', private_key: '' },
    blocked: denial !== null,
    onSubmit: async (input) => {
      await onSubmit(input);
      // Uploaded: the form no longer needs to hold the key.
      form.resetField('private_key');
    },
  });
  const {
    register,
    formState: { errors },
  } = form;

  return (
    <Form form={form} className="card card-body form" aria-label="New Certificate">
      <FormField
        label="Certificate"
        hint="PEM format, the certificate first, then any intermediate certificates."
        error={errors.certificate_body?.message}
      >
        {(control) => (
          <textarea
            className="input pem-textarea"
            rows={8}
            spellCheck={false}
            placeholder="-----BEGIN CERTIFICATE-----"
            {...control}
            {...register('certificate_body')}
          />
        )}
      </FormField>
      <FormField label="Private Key" hint="PEM format, unencrypted." error={errors.private_key?.message}>
        {(control) => (
          <textarea
            className="input pem-textarea"
            rows={8}
            spellCheck={false}
            placeholder="-----BEGIN PRIVATE KEY-----"
            {...control}
            {...register('private_key')}
          />
        )}
      </FormField>
      <SubmitRow denial={denial}>Save Certificate</SubmitRow>
    </Form>
  );
}
