import { createAppSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface CreateAppFormProps {
  stackName: string;
  environmentHandle: string;
  onSubmit: (handle: string) => Promise<unknown>;
}

/** spec 3 §2 "Name your App": stack and environment read-only, and a handle (spec 2 §5). */
export function CreateAppForm({ stackName, environmentHandle, onSubmit }: CreateAppFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(createAppSchema), defaultValues: { handle: '' } });

  const submit = handleSubmit(async ({ handle }) => {
    setFailure(null);
    try {
      await onSubmit(handle);
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField label="Stack" value={stackName} readOnly />
      <TextField label="Environment" value={environmentHandle} readOnly />
      <TextField
        label="Handle"
        autoComplete="off"
        spellCheck={false}
        placeholder="my-app"
        hint="Lowercase letters, digits, periods, hyphens and underscores."
        error={errors.handle?.message}
        {...register('handle')}
      />
      <Button type="submit" size="lg" block loading={isSubmitting}>
        Create App
      </Button>
    </form>
  );
}
