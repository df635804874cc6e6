import { type LoginFields, loginProblems, normalizedEmail } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
// The plain-function rules: the login page loads no schema library (issue 11).
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/rules-form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { type ApiError, isApiError } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import type { Credentials } from '../api/create-token.ts';

/** spec 1 §8: shown when the password was right but a second factor is needed. */
export const OTP_REQUIRED_WARNING = 'You must enter your 2FA token to continue';

/** contract §3.7: the code that reveals the 2FA field. */
const OTP_REQUIRED = 'otp_token_required';

/** A 429: the account may be locked after failed logins, which its second factor opens (issue 34). */
const RATE_LIMITED = 'rate_limited';

/** The 2FA field's hint once a login was refused as locked: it does not say whether the account has 2FA. */
export const LOCKED_OTP_HINT =
  'If your account uses two-factor authentication, a code lets you log in while it is locked.';

export interface CredentialsFormProps {
  submitLabel: string;
  /** Elevation shows the signed-in email read-only (spec 1 §2). */
  email?: string;
  /** Show the 2FA field from the start (a user known to have 2FA on). */
  withOtp?: boolean;
  onSubmit: (credentials: Credentials) => Promise<unknown>;
  /**
   * Where the form posts without JavaScript (the page the build prerenders): the server answers it with
   * the page again, saying the console needs JavaScript. With scripts the submit never leaves the page.
   */
  postTo?: string;
}

/** contract §3.7: request options for the user's security keys, sent with `otp_token_required`. */
function keyOptionsOf(error: ApiError): Record<string, unknown> | null {
  const body = error.body as { exception_context?: { u2f?: { payload?: unknown } } } | null;
  const payload = body?.exception_context?.u2f?.payload;
  return payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : null;
}

/** Email, password and, once the server asks for it, a 2FA code: the login and elevation forms. */
export function CredentialsForm({
  submitLabel,
  email,
  withOtp = false,
  onSubmit,
  postTo,
}: CredentialsFormProps) {
  const [otpRequired, setOtpRequired] = useState(false);
  const [lockedOut, setLockedOut] = useState(false);
  const [keyOptions, setKeyOptions] = useState<Record<string, unknown> | null>(null);
  const [keyFailure, setKeyFailure] = useState<string | null>(null);
  const rules = resolverOf<LoginFields>(loginProblems, (values) => ({
    ...values,
    email: normalizedEmail(values.email),
  }));
  const form = useRulesForm(rules, {
    defaultValues: { email: email ?? '', password: '', otpToken: '' },
    onSubmit: async (values) => {
      try {
        await onSubmit({
          email: values.email,
          password: values.password,
          otpToken: values.otpToken?.trim() || undefined,
        });
      } catch (error) {
        // The lock's message shows as the failure; the field is offered for the second factor that opens it.
        if (isApiError(error, RATE_LIMITED)) setLockedOut(true);
        // Not a failure: the server asks for the second factor, so the field appears instead of a banner.
        if (!isApiError(error, OTP_REQUIRED)) throw error;
        setOtpRequired(true);
        setKeyOptions(keyOptionsOf(error));
        // Let the field mount before moving focus into it.
        setTimeout(() => form.setFocus('otpToken'), 0);
      }
    },
  });
  const { field } = form;

  /** Sign the server's challenge with a security key; @simplewebauthn/browser loads only now. */
  const signWithSecurityKey = async () => {
    if (!keyOptions) return;
    setKeyFailure(null);
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const assertion = await startAuthentication({
        optionsJSON: keyOptions as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
      });
      const { email: typedEmail, password } = form.getValues();
      await onSubmit({ email: typedEmail, password, u2f: assertion });
    } catch (error) {
      // Each challenge is single use: a retry needs the next one the server sends.
      if (isApiError(error, OTP_REQUIRED)) setKeyOptions(keyOptionsOf(error));
      else setKeyOptions(null);
      setKeyFailure(messageOf(error));
    }
  };

  return (
    <Form form={form} method={postTo ? 'post' : undefined} action={postTo}>
      {otpRequired ? <Banner variant="warning">{OTP_REQUIRED_WARNING}</Banner> : null}
      <TextField
        label="Email"
        type="email"
        autoComplete={email ? 'off' : 'username'}
        readOnly={email !== undefined}
        {...field('email')}
      />
      <TextField label="Password" type="password" autoComplete="current-password" {...field('password')} />
      {otpRequired || withOtp || lockedOut ? (
        <TextField
          label="2FA Code"
          inputMode="numeric"
          autoComplete="one-time-code"
          hint={
            lockedOut && !otpRequired && !withOtp
              ? LOCKED_OTP_HINT
              : 'The 6-digit code from your authenticator app, or a recovery code.'
          }
          {...field('otpToken')}
        />
      ) : null}
      <SubmitRow size="lg" block>
        {submitLabel}
      </SubmitRow>
      {keyFailure ? <Banner variant="error">{keyFailure}</Banner> : null}
      {keyOptions ? (
        <Button variant="secondary" size="lg" block onClick={signWithSecurityKey}>
          Use a security key
        </Button>
      ) : null}
    </Form>
  );
}
