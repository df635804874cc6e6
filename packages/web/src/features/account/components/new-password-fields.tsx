import { useId } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { PasswordRules } from '../../../components/ui/password-rules.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

interface NewPasswordValues {
  password: string;
  passwordConfirmation: string;
}

/** The new password, with the rules checked as the user types, and its confirmation (spec 1 §5). */
export function NewPasswordFields({
  form,
  field,
}: {
  form: UseFormReturn<NewPasswordValues, unknown, NewPasswordValues>;
  field: (name: 'passwordConfirmation') => ReturnType<UseFormReturn<NewPasswordValues>['register']> & {
    error: string | undefined;
  };
}) {
  const rulesId = useId();
  const {
    register,
    watch,
    formState: { errors, isSubmitted },
  } = form;
  const password = watch('password');
  return (
    <>
      <div className="field-group">
        <TextField
          label="New Password"
          type="password"
          autoComplete="new-password"
          describedBy={rulesId}
          invalid={!!errors.password}
          {...register('password')}
        />
        <PasswordRules id={rulesId} password={password} showAsErrors={isSubmitted && !!errors.password} />
      </div>
      <TextField
        label="Confirm New Password"
        type="password"
        autoComplete="new-password"
        {...field('passwordConfirmation')}
      />
    </>
  );
}
