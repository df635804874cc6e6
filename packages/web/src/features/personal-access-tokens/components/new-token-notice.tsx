import { personalAccessTokenMessages } from '@berth/core';
import type { ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { CreatedPersonalAccessToken } from '../api/personal-access-tokens.ts';

/**
 * A token just made, shown this once with a Copy button and the warning that it will not be shown
 * again; Done forgets it. `children` says where to use it (the CI/CD tab: as BERTH_TOKEN).
 */
export function NewTokenNotice({
  token,
  onDone,
  children,
}: {
  token: CreatedPersonalAccessToken;
  onDone: () => void;
  children?: ReactNode;
}) {
  return (
    <section className="card card-body form-card" aria-labelledby={`new-token-${token.id}`}>
      <h2 className="section-title" id={`new-token-${token.id}`}>
        Your new token “{token.name}”
      </h2>
      <Banner variant="warning">{personalAccessTokenMessages.shownOnce}</Banner>
      <CopyableText text={token.accessToken} label="the token" secret />
      <p className="muted">
        Scope {token.scope}, expires {formatDateTime(token.expiresAt)}.
      </p>
      {children}
      <div className="form-actions">
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
