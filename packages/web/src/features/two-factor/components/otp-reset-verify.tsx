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
  // A form, so that the prerendered page (issue 40) posts to its own address without JavaScript.
  return (
    <form
      className="stack"
      method="post"
      aria-label="Reset two-factor authentication"
      onSubmit={(event) => {
        event.preventDefault();
        confirm.mutate({ challengeId, verificationCode });
      }}
    >
      <p>
        An owner of your organization asked to reset your two-factor authentication. Confirm to turn 2FA off.
      </p>
      {confirm.isError ? <Banner variant="error">{messageOf(confirm.error)}</Banner> : null}
      <Button type="submit" block loading={confirm.isPending}>
        Reset 2FA
      </Button>
    </form>
  );
}
