import { accountMessages, type ChangeEmailInput, changeEmailSchema } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { PendingEmailChange } from '../api/use-email-changes.ts';

export interface ChangeEmailSectionProps {
  currentEmail: string;
  pending: readonly PendingEmailChange[] | undefined;
  pendingError: Error | null;
  /** Mails a verification link to the new address; the address changes once it is opened. */
  onRequest: (email: string) => Promise<unknown>;
  onCancel: (challengeId: string) => Promise<unknown>;
  /** Why the address cannot be changed here (a provisioned user's is the identity provider's), or null. */
  denial?: string | null;
}

/** spec 1 §2 Security Settings, Change Email: the new address, and the changes still waiting for their link. */
export function ChangeEmailSection({
  currentEmail,
  pending,
  pendingError,
  onRequest,
  onCancel,
  denial = null,
}: ChangeEmailSectionProps) {
  const form = useSchemaForm(changeEmailSchema, {
    defaultValues: { email: '' },
    onSubmit: async ({ email }: ChangeEmailInput) => {
      await onRequest(email);
      form.reset();
    },
    successMessage: ({ email }) => accountMessages.emailChangeRequested(email),
    blocked: (values) => denial !== null || values.email.trim() === '',
  });
  const email = form.watch('email');

  const cancel = async (challengeId: string) => {
    try {
      await onCancel(challengeId);
      showToast(accountMessages.emailChangeCancelled);
    } catch (error) {
      showToast(messageOf(error), 'error');
    }
  };

  return (
    <div className="section-stack">
      <Form form={form} title="Change Email" aria-label="Change Email">
        <p>
          Your current email address is <strong>{currentEmail}</strong>. We send a link to the new address;
          the change applies once you open it.
        </p>
        <TextField label="New Email" type="email" autoComplete="email" {...form.field('email')} />
        <SubmitRow denial={denial} disabled={email.trim() === ''}>
          Change Email
        </SubmitRow>
      </Form>
      <section aria-label="Pending email changes">
        <h3 className="section-subtitle">Pending email changes</h3>
        {pendingError ? <Banner variant="error">{pendingError.message}</Banner> : null}
        {pending && pending.length === 0 ? <p>No pending requests</p> : null}
        {pending && pending.length > 0 ? (
          <ul className="pending-email-changes">
            {pending.map((change) => (
              <li key={change.id}>
                <span>
                  {change.email} <small>(link expires {formatDateTime(change.expiresAt)})</small>
                </span>{' '}
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={`Cancel change to ${change.email}`}
                  onClick={() => void cancel(change.id)}
                >
                  Cancel
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}
