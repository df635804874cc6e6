import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { apiRequest, type EmptyResponse } from '../../../lib/api-client.ts';

/**
 * spec 1 §4 and §6: an organization owner asks to reset a member's 2FA (`POST /otp/resets/new`); the member
 * is mailed a link and 2FA stays on until they confirm it. Shown only for a member with 2FA on.
 */
export function ResetTwoFactor({ userId, denial }: { userId: string; denial: string | null }) {
  const [confirming, setConfirming] = useState(false);
  const reset = useMutation({
    mutationFn: () =>
      apiRequest<EmptyResponse>('auth', '/otp/resets/new', { method: 'POST', body: { user_id: userId } }),
    onSuccess: () => setConfirming(false),
  });
  return (
    <section className="card card-body" aria-labelledby="reset-two-factor">
      <h2 id="reset-two-factor" className="section-title">
        2-Factor Authentication
      </h2>
      <p>This member uses 2FA. If they lost their device, they can be mailed a link to turn it off.</p>
      {reset.isSuccess ? (
        <Banner variant="success">
          A reset link was emailed to the member. 2FA stays on until they confirm it.
        </Banner>
      ) : null}
      {reset.error ? <Banner variant="error">{reset.error.message}</Banner> : null}
      {confirming ? (
        <div className="form-actions">
          <Button variant="danger" onClick={() => reset.mutate()} disabled={reset.isPending}>
            Email the reset link
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </Button>
        </div>
      ) : (
        <ScopedButton denial={denial} variant="secondary" onClick={() => setConfirming(true)}>
          Reset 2FA
        </ScopedButton>
      )}
    </section>
  );
}
