import { ssoFailureMessage } from '@berth/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { useCollectCliToken } from '../../../features/cli-tokens/api/use-collect-cli-token.ts';
import { CliTokenResult } from '../../../features/cli-tokens/components/cli-token-result.tsx';
import { paths } from '../../../lib/paths.ts';
import { AuthLayout } from '../../layouts/auth-layout.tsx';

/** The one-time code in the URL's fragment (`#code=…`): a fragment never reaches a server or its logs. */
function codeIn(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('code') || null;
}

/**
 * spec 3 "CLI token", the reading variant: the SSO login lands here with a one-time code, which is
 * traded for the token at once and dropped from the address bar (and so from the history). A failed SSO
 * login comes back with `?message=<code>` (spec 1 §8's texts); a failed fetch offers Retry.
 */
function CliTokenReadRoute() {
  const location = useLocation();
  const failure = new URLSearchParams(location.search).get('message');
  // Read once: the fragment is wiped below, and a retry needs the code again.
  const [code] = useState(() => codeIn(location.hash));
  const collect = useCollectCliToken();
  const asked = useRef(false);

  useEffect(() => {
    if (!code || asked.current) return;
    // Once only, even when React runs effects twice: a spent code cannot be spent again.
    asked.current = true;
    window.history.replaceState(window.history.state, '', `${location.pathname}${location.search}`);
    collect.mutate(code);
  }, [code, collect, location.pathname, location.search]);

  return (
    <AuthLayout
      title="CLI SSO Token"
      footer={
        <p>
          <Link to={paths.ssoCli}>Get another token</Link>
        </p>
      }
    >
      {failure !== null ? (
        <Banner variant="error">{ssoFailureMessage(failure)}</Banner>
      ) : (
        <CliTokenResult
          token={collect.data ?? null}
          pending={collect.isPending}
          failed={collect.isError || !code}
          onRetry={code ? () => collect.mutate(code) : null}
        />
      )}
    </AuthLayout>
  );
}

export { CliTokenReadRoute as Component };
