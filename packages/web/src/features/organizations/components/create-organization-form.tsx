import { createOrganizationSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

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
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(createOrganizationSchema), defaultValues: { name: defaultName } });

  const submit = handleSubmit(async ({ name }) => {
    setFailure(null);
    try {
      await onSubmit(name);
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Organization name"
        autoComplete="organization"
        error={errors.name?.message}
        {...register('name')}
      />
      <Button type="submit" size="lg" block loading={isSubmitting}>
        {submitLabel}
      </Button>
    </form>
  );
}
