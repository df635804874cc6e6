import { useState } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import {
  type CreatedPersonalAccessToken,
  useCreatePersonalAccessToken,
  usePersonalAccessTokens,
  useRevokePersonalAccessToken,
} from '../../../features/personal-access-tokens/api/personal-access-tokens.ts';
import { CreatePersonalAccessTokenForm } from '../../../features/personal-access-tokens/components/create-personal-access-token-form.tsx';
import { NewTokenNotice } from '../../../features/personal-access-tokens/components/new-token-notice.tsx';
import { PersonalAccessTokenList } from '../../../features/personal-access-tokens/components/personal-access-token-list.tsx';
import { to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';

/**
 * /settings/tokens (ours, issue 35; the spec names no such screen): the user's personal access tokens for
 * git and the API, each revocable, and Generate token, whose token is shown once. Behind reauthentication
 * like SSH Keys (spec 1 §6): a token acts as its owner.
 */
function AccessTokensRoute() {
  const session = useSession();
  const location = useLocation();
  const userId = session.accessToken?.userId ?? '';
  const tokens = usePersonalAccessTokens(userId);
  const create = useCreatePersonalAccessToken(userId);
  const revoke = useRevokePersonalAccessToken(userId);
  const [made, setMade] = useState<CreatedPersonalAccessToken | null>(null);

  if (!validElevatedToken(session)) {
    return <Navigate to={to.elevate(`${location.pathname}${location.search}`)} replace />;
  }
  return (
    <>
      <PageHeader
        title="Access Tokens"
        description="Personal access tokens act as you for git pushes (as the password) and the API (as a bearer token). A password, email or 2FA change revokes them; logging out does not."
      />
      <div className="section-stack">
        {made ? <NewTokenNotice token={made} onDone={() => setMade(null)} /> : null}
        {tokens.error ? <Banner variant="error">Error: {tokens.error.message}</Banner> : null}
        {tokens.data ? (
          <PersonalAccessTokenList tokens={tokens.data} onRevoke={(id) => revoke.mutateAsync(id)} />
        ) : tokens.isPending ? (
          <Skeleton label="Loading access tokens" />
        ) : null}
        <CreatePersonalAccessTokenForm onCreate={async (input) => setMade(await create.mutateAsync(input))} />
      </div>
    </>
  );
}

export { AccessTokensRoute as Component };
