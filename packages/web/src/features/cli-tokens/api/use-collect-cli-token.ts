import type { TokenResource } from '@berth/core';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** A collected CLI token: what the page shows and until when it works. */
export interface CliToken {
  accessToken: string;
  expiresAt: string;
}

/**
 * Trades the one-time code an SSO login with `landing_page=clitoken` left for the CLI token (POST
 * /auth/cli_tokens, ours). The code is the proof: no bearer goes with it, and the console's own session
 * stays as it is.
 */
export function useCollectCliToken() {
  return useMutation({
    mutationFn: async (code: string): Promise<CliToken> => {
      const token = await apiRequest<TokenResource>('auth', '/cli_tokens', {
        method: 'POST',
        body: { code },
        auth: 'none',
      });
      return { accessToken: token.access_token, expiresAt: token.expires_at };
    },
  });
}
