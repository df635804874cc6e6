import { renameEnvironmentSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface RenameEnvironmentFormProps {
  currentHandle: string;
  /** Why the caller may not rename (action environment.rename), or null: the tooltip. */
  denial: string | null;
  onRename: (handle: string) => Promise<unknown>;
}

/** spec 2 §2 environment settings: rename needs a valid handle and an acknowledgment. */
export function RenameEnvironmentForm({ currentHandle, denial, onRename }: RenameEnvironmentFormProps) {
  const acknowledgeId = useId();
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(renameEnvironmentSchema),
    defaultValues: { handle: currentHandle, acknowledged: false },
  });

  const submit = handleSubmit(async ({ handle }) => {
    setResult(null);
    try {
      await onRename(handle);
      setResult({ ok: true, message: `Environment renamed to ${handle}` });
    } catch (error) {
      setResult({ ok: false, message: messageOf(error) });
    }
  });

  return (
    <form
      className="card card-body form section-stack"
      aria-label="Rename Environment"
      noValidate
      onSubmit={submit}
    >
      <h2 className="section-title">Rename Environment</h2>
      {result ? <Banner variant={result.ok ? 'success' : 'error'}>{result.message}</Banner> : null}
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
      <div>
        <ScopedButton type="submit" denial={denial} loading={isSubmitting}>
          Rename Environment
        </ScopedButton>
      </div>
    </form>
  );
}
