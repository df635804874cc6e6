import { loginSchema } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import type { Credentials } from '../api/create-token.ts';

/** spec 1 §8: shown when the password was right but a second factor is needed. */
export const OTP_REQUIRED_WARNING = 'You must enter your 2FA token to continue';

/** contract §3.7: the code that reveals the 2FA field. */
const OTP_REQUIRED = 'otp_token_required';

export interface CredentialsFormProps {
  submitLabel: string;
  /** Elevation shows the signed-in email read-only (spec 1 §2). */
  email?: string;
  /** Show the 2FA field from the start (a user known to have 2FA on). */
  withOtp?: boolean;
  onSubmit: (credentials: Credentials) => Promise<unknown>;
}

/** Email, password and, once the server asks for it, a 2FA code: the login and elevation forms. */
export function CredentialsForm({ submitLabel, email, withOtp = false, onSubmit }: CredentialsFormProps) {
  const [otpRequired, setOtpRequired] = useState(false);
  const form = useSchemaForm(loginSchema, {
    defaultValues: { email: email ?? '', password: '', otpToken: '' },
    onSubmit: async (values) => {
      try {
        await onSubmit({
          email: values.email,
          password: values.password,
          otpToken: values.otpToken?.trim() || undefined,
        });
      } catch (error) {
        // Not a failure: the server asks for the second factor, so the field appears instead of a banner.
        if (!isApiError(error, OTP_REQUIRED)) throw error;
        setOtpRequired(true);
        // Let the field mount before moving focus into it.
        setTimeout(() => form.setFocus('otpToken'), 0);
      }
    },
  });
  const { field } = form;

  return (
    <Form form={form}>
      {otpRequired ? <Banner variant="warning">{OTP_REQUIRED_WARNING}</Banner> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete={email ? 'off' : 'username'}
        readOnly={email !== undefined}
        {...field('email')}
      />
      <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
      {otpRequired || withOtp ? (
        <TextField
          label="2FA Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          hint="The 6-digit code from your authenticator app, or a recovery code."
          {...field('otpToken')}
        />
      ) : null}
      <SubmitRow size="lg" block>
        {submitLabel}
      </SubmitRow>
    </Form>
  );
}
