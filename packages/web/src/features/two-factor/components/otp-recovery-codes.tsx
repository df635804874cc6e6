import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { downloadTextFile } from '../../../lib/download.ts';
import { messageOf } from '../../../lib/error-message.ts';
import { useRecoveryCodes, useRegenerateRecoveryCodes } from '../api/two-factor.ts';

/** spec 1 §2 /settings/otp-recovery-codes: single-use codes to copy, download or replace. */
export function OtpRecoveryCodes({ configurationId }: { configurationId: string }) {
  const codes = useRecoveryCodes(configurationId);
  const regenerate = useRegenerateRecoveryCodes(configurationId);
  if (codes.isError) return <Banner variant="error">{messageOf(codes.error)}</Banner>;
  if (!codes.data) return <Spinner label="Loading your recovery codes" />;
  const unused = codes.data.filter((code) => !code.used).map((code) => code.value);
  const text = `${unused.join('\n')}\n`;
  return (
    <div className="card card-body form-card">
      <p>
        Each code logs you in once in place of a 2FA code, if you lose your authenticator. Keep them somewhere
        safe.
      </p>
      <ul className="otp-recovery-codes" aria-label="Recovery codes">
        {codes.data.map((code) => (
          <li key={code.id}>{code.used ? <s>used</s> : <code>{code.value}</code>}</li>
        ))}
      </ul>
      {regenerate.isError ? <Banner variant="error">{messageOf(regenerate.error)}</Banner> : null}
      <div className="button-row">
        <CopyButton text={text} label="Copy recovery codes" />
        <Button
          size="sm"
          variant="secondary"
          onClick={() => downloadTextFile('berth-recovery-codes.txt', text, 'text/plain;charset=utf-8')}
        >
          Download
        </Button>
        <Button
          size="sm"
          variant="danger"
          loading={regenerate.isPending}
          onClick={async () => {
            try {
              await regenerate.mutateAsync();
              showToast('New recovery codes were generated; the old ones no longer work.');
            } catch {
              // The banner above shows the failure.
            }
          }}
        >
          Generate new codes
        </Button>
      </div>
    </div>
  );
}
