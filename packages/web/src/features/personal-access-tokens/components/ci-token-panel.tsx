import {
  CI_TOKEN_VARIABLE,
  DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
  personalAccessTokenMessages,
} from '@berth/core';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { paths, to } from '../../../lib/paths.ts';
import { useSession, validElevatedToken } from '../../../lib/session-store.ts';
import {
  type CreatedPersonalAccessToken,
  useCreatePersonalAccessToken,
} from '../api/personal-access-tokens.ts';
import { NewTokenNotice } from './new-token-notice.tsx';

/**
 * The CI/CD tab's "Generate a token for CI": a personal access token named for the app (`tokenName`),
 * scope manage, the default expiry, shown once with where to keep it. Making one needs the password
 * entered again: without a valid elevated token the button goes to that page and back here.
 */
export function CiTokenPanel({ tokenName }: { tokenName: string }) {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const create = useCreatePersonalAccessToken(session.accessToken?.userId ?? '');
  const [made, setMade] = useState<CreatedPersonalAccessToken | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  if (made) {
    return (
      <NewTokenNotice token={made} onDone={() => setMade(null)}>
        <p>
          Keep it in your CI’s secrets as <code>{CI_TOKEN_VARIABLE}</code>: the push command above reads it
          from there. It acts as you, so anyone who holds it can deploy where you can.
        </p>
      </NewTokenNotice>
    );
  }
  return (
    <div className="section-stack">
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <div>
        <Button
          loading={create.isPending}
          onClick={async () => {
            if (!validElevatedToken(session)) {
              navigate(to.elevate(`${location.pathname}${location.search}`));
              return;
            }
            setFailure(null);
            try {
              setMade(
                await create.mutateAsync({
                  name: tokenName,
                  scope: 'manage',
                  expires_in_days: DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
                }),
              );
              showToast(personalAccessTokenMessages.created);
            } catch (error) {
              setFailure(messageOf(error));
            }
          }}
        >
          Generate a token for CI
        </Button>
      </div>
      <p className="muted">
        Named “{tokenName}”, scope manage, valid for {DEFAULT_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS} days. Your
        tokens are listed, and revoked, under <Link to={paths.settingsTokens}>Access Tokens</Link>.
      </p>
    </div>
  );
}
