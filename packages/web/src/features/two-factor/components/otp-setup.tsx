import { accountMessages, otpSecretOf, otpSetupSchema } from '@berth/core';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { QrCode } from '../../../components/ui/qr-code.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { paths } from '../../../lib/paths.ts';
import { type OtpConfiguration, useCreateOtpConfiguration, useSetOtpEnabled } from '../api/two-factor.ts';

/** The form that turns 2FA on with a code of the pending configuration (spec 1 §5: 'must enter token'). */
export function OtpEnableForm({
  userId,
  configuration,
  onEnabled,
}: {
  userId: string;
  configuration: OtpConfiguration;
  onEnabled: () => void;
}) {
  const enable = useSetOtpEnabled(userId);
  const form = useSchemaForm(otpSetupSchema, {
    defaultValues: { otpToken: '' },
    onSubmit: async ({ otpToken }) => {
      await enable.mutateAsync({ enabled: true, configuration, otpToken });
      onEnabled();
    },
  });
  return (
    <Form form={form}>
      <TextField
        label="2FA Code"
        inputMode="numeric"
        autoComplete="one-time-code"
        hint="The 6-digit code your authenticator app shows for Berth."
        {...form.field('otpToken')}
      />
      <SubmitRow>Enable 2FA</SubmitRow>
    </Form>
  );
}

/** spec 1 §2 /settings/otp-setup: a new secret as a QR code and as text, then a code to enable it. */
export function OtpSetup({ userId, otpEnabled }: { userId: string; otpEnabled: boolean }) {
  const navigate = useNavigate();
  const create = useCreateOtpConfiguration(userId);
  const started = useRef(false);
  useEffect(() => {
    if (otpEnabled || started.current) return;
    started.current = true;
    create.mutate();
  }, [otpEnabled, create.mutate]);

  if (otpEnabled) return <Banner variant="info">Two-factor authentication is already enabled.</Banner>;
  if (create.isError) return <Banner variant="error">{messageOf(create.error)}</Banner>;
  const configuration = create.data;
  if (!configuration) return <Spinner label="Creating your 2FA secret" />;
  const secret = otpSecretOf(configuration.uri) ?? '';
  return (
    <div className="section-stack">
      <div className="card card-body form-card">
        <h2>1. Scan the QR code</h2>
        <p>Scan it with an authenticator app, or type the secret in by hand.</p>
        <QrCode className="otp-qr" value={configuration.uri} alt="QR code for your authenticator app" />
        <p className="otp-secret">
          Secret: <code data-testid="otp-secret">{secret}</code>{' '}
          <CopyButton text={secret} label="Copy secret" />
        </p>
      </div>
      <div className="card card-body form-card">
        <h2>2. Enter a code</h2>
        <OtpEnableForm
          userId={userId}
          configuration={configuration}
          onEnabled={() => {
            // spec 1 §8: turning 2FA on ends the other sessions, and the toast says so.
            showToast(
              `Two-factor authentication is now enabled. Keep your recovery codes somewhere safe.${accountMessages.otherSessionsLoggedOut}`,
            );
            navigate(paths.otpRecoveryCodes);
          }}
        />
      </div>
    </div>
  );
}
