import { hasWriteAccess, impersonationMessages } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { paths } from '../../../lib/paths.ts';
import { useSession } from '../../../lib/session-store.ts';
import { reloadConsole, stopImpersonating } from '../api/impersonation.ts';

/**
 * contract §3.4 "Impersonated": the token's actor differs from its user. Says who is impersonated,
 * whether read-only, and offers the way back to the impersonator's own session.
 */
export function ImpersonationBanner() {
  const { accessToken } = useSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  if (!accessToken?.actorHref || accessToken.actorHref === accessToken.userHref) return null;
  const claims = accessToken.claims;
  const readOnly = !hasWriteAccess(claims);
  return (
    <Banner
      variant="warning"
      title={impersonationMessages.banner(claims?.name ?? 'a user', claims?.email ?? accessToken.userId)}
      actions={
        <Button
          size="sm"
          loading={pending}
          onClick={async () => {
            setPending(true);
            setFailure(null);
            try {
              await stopImpersonating();
              reloadConsole(paths.impersonate);
            } catch (error) {
              setFailure(messageOf(error));
              setPending(false);
            }
          }}
        >
          Stop impersonating
        </Button>
      }
    >
      {readOnly ? 'Read-only: changes are refused.' : 'With write access: changes are made as this user.'}
      {claims?.act?.email ? ` Signed in as ${claims.act.email}.` : null}
      {failure ? ` ${failure}` : null}
    </Banner>
  );
}
