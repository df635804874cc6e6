import './certificates.css';
import { type CreateCertificateInput, createCertificateSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';

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
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    resetField,
    formState: { errors, isSubmitting },
  } = useForm<CreateCertificateInput>({
    resolver: zodResolver(createCertificateSchema),
    defaultValues: { certificate_body: '', private_key: '' },
  });

  const submit = handleSubmit(async (input) => {
    setFailure(null);
    try {
      await onSubmit(input);
      // Uploaded: the form no longer needs to hold the key.
      resetField('private_key');
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="card card-body form" aria-label="New Certificate" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
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
      <div>
        <ScopedButton type="submit" denial={denial} loading={isSubmitting}>
          Save Certificate
        </ScopedButton>
      </div>
    </form>
  );
}
