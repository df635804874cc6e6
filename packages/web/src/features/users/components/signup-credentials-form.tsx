import { signupSchema } from '@berth/core';
import { useId } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { Form, useSchemaForm } from '../../../components/ui/form.tsx';
import { PasswordRules } from '../../../components/ui/password-rules.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

const credentialsSchema = signupSchema({ fromInvitation: false }).pick({ email: true, password: true });

export interface SignupCredentials {
  email: string;
  password: string;
}

export interface SignupCredentialsFormProps {
  defaultEmail?: string;
  /** Issue 20: the invited address, which the invitation's code proves, is kept as it is. */
  emailLocked?: boolean;
  onBack: () => void;
  onSubmit: (credentials: SignupCredentials) => Promise<unknown>;
}

/** Sign-up step 2 (spec 1 §2): the login, with the password rules checked as the user types. */
export function SignupCredentialsForm({
  defaultEmail,
  emailLocked = false,
  onBack,
  onSubmit,
}: SignupCredentialsFormProps) {
  const rulesId = useId();
  const form = useSchemaForm(credentialsSchema, {
    defaultValues: { email: defaultEmail ?? '', password: '' },
    onSubmit,
  });
  const {
    register,
    field,
    watch,
    formState: { errors, isSubmitting, isSubmitted },
  } = form;
  const password = watch('password');

  return (
    <Form form={form}>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        readOnly={emailLocked}
        hint={emailLocked ? 'The address the invitation was sent to.' : undefined}
        {...field('email')}
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
      {/* Back comes first in the sign-up steps (auth layout), so this row is not the usual SubmitRow. */}
      <div className="form-actions">
        <Button variant="secondary" size="lg" onClick={onBack} disabled={isSubmitting}>
          Back
        </Button>
        <Button type="submit" size="lg" loading={isSubmitting}>
          Create Account
        </Button>
      </div>
    </Form>
  );
}
