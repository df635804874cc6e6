import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { useConfirmOtpReset } from '../api/two-factor.ts';

/** spec 1 §4: an owner asked to reset this member's 2FA; nothing changes until the member confirms. */
export function OtpResetVerify({
  challengeId,
  verificationCode,
}: {
  challengeId: string;
  verificationCode: string;
}) {
  const confirm = useConfirmOtpReset();
  if (confirm.isSuccess) {
    return (
      <Banner variant="success">
        Two-factor authentication is now disabled on your account. Log in with your password and set it up
        again.
      </Banner>
    );
  }
  return (
    <div className="stack">
      <p>
        An owner of your organization asked to reset your two-factor authentication. Confirm to turn 2FA off.
      </p>
      {confirm.isError ? <Banner variant="error">{messageOf(confirm.error)}</Banner> : null}
      <Button
        block
        loading={confirm.isPending}
        onClick={() => confirm.mutate({ challengeId, verificationCode })}
      >
        Reset 2FA
      </Button>
    </div>
  );
}
