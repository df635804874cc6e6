import { ssoEnforcementMessages } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { CliToken } from '../api/use-collect-cli-token.ts';

export interface CliTokenResultProps {
  token: CliToken | null;
  pending: boolean;
  failed: boolean;
  /** Asks again with the same code (spec 3: a Retry button), or null when there is nothing to retry. */
  onRetry: (() => void) | null;
}

/** spec 3 "CLI token", the reading variant: the token with a copy button, or the failure with Retry. */
export function CliTokenResult({ token, pending, failed, onRetry }: CliTokenResultProps) {
  if (token) {
    return (
      <div className="section-stack">
        <p>Paste this token where your CLI asks for it. Keep it secret: it acts as you.</p>
        <CopyableText text={token.accessToken} label="the CLI token" secret />
        <p>It expires {formatDateTime(token.expiresAt)}.</p>
      </div>
    );
  }
  if (failed) {
    return (
      <Banner variant="error" actions={onRetry ? <Button onClick={onRetry}>Retry</Button> : undefined}>
        {ssoEnforcementMessages.cliTokenFailed}
      </Banner>
    );
  }
  return pending ? <Spinner label="Fetching your token" /> : null;
}
