import { signupSchema } from '@berth/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { PasswordRules } from './password-rules.tsx';

const credentialsSchema = signupSchema({ fromInvitation: false }).pick({ email: true, password: true });

export interface SignupCredentials {
  email: string;
  password: string;
}

export interface SignupCredentialsFormProps {
  defaultEmail?: string;
  onBack: () => void;
  onSubmit: (credentials: SignupCredentials) => Promise<unknown>;
}

/** Sign-up step 2 (spec 1 §2): the login, with the password rules checked as the user types. */
export function SignupCredentialsForm({ defaultEmail, onBack, onSubmit }: SignupCredentialsFormProps) {
  const rulesId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = useForm({
    resolver: zodResolver(credentialsSchema),
    defaultValues: { email: defaultEmail ?? '', password: '' },
  });
  const password = watch('password');

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <div className="field-group">
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          describedBy={rulesId}
          invalid={!!errors.password}
          {...register('password')}
        />
        <PasswordRules id={rulesId} password={password} showAsErrors={isSubmitted && !!errors.password} />
      </div>
      <div className="form-actions">
        <Button variant="secondary" size="lg" onClick={onBack} disabled={isSubmitting}>
          Back
        </Button>
        <Button type="submit" size="lg" loading={isSubmitting}>
          Create Account
        </Button>
      </div>
    </form>
  );
}
