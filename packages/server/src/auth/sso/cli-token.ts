import { createHash, randomBytes } from 'node:crypto';
import { CLI_TOKEN_DEFAULT_SECONDS, CLI_TOKEN_MAX_SECONDS } from '@berth/core';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { cliTokenPickups, users } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import type { SsoLogin } from '../saml/saml-login.service.ts';
import type { ClientInfo, IssuedToken, TokenService } from '../tokens/token.service.ts';

/** How long the browser has to collect a CLI token after its SSO login. */
export const CLI_TOKEN_PICKUP_SECONDS = 300;
/** The console page a `landing_page=clitoken` login lands on (spec 3 "CLI token": the reading variant). */
export const CLI_TOKEN_READ_PATH = '/sso/cli/read';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const cliTokenGone = () =>
  new ApiError(
    404,
    'not_found',
    'This CLI token was collected already or its link has expired. Start again from the CLI token page.',
  );

/**
 * CLI tokens (spec 3 "CLI token"): an SSO login with `landing_page=clitoken` owes its browser an
 * organization token of the lifetime the CLI asked for. The login leaves a one-time code the console's
 * /sso/cli/read page trades for the token. The token is independent of the browser's session: the CLI
 * keeps it after the browser logs out, and it ends with the user's other tokens (password change, "log
 * out other sessions") or when revoked from the sessions list.
 */
export function createCliTokens(deps: { db: Db; tokens: TokenService }) {
  const { db, tokens } = deps;

  return {
    /** Records the token owed to the user who signed in through the organization; answers the code. */
    async owe(owed: { userId: string; organizationId: string; durationSeconds: number }): Promise<string> {
      const durationSeconds = Math.min(Math.max(Math.floor(owed.durationSeconds), 1), CLI_TOKEN_MAX_SECONDS);
      const code = randomBytes(32).toString('base64url');
      // Codes nobody collected go as new ones are made: the table holds minutes' worth at most.
      await db.delete(cliTokenPickups).where(lt(cliTokenPickups.expiresAt, new Date()));
      await db.insert(cliTokenPickups).values({
        codeHash: sha256(code),
        userId: owed.userId,
        organizationId: owed.organizationId,
        durationSeconds,
        expiresAt: new Date(Date.now() + CLI_TOKEN_PICKUP_SECONDS * 1000),
      });
      return code;
    },

    /** The token a live code is owed, made now; the code is spent. Unknown, spent or expired: 404. */
    async collect(code: string, client?: ClientInfo): Promise<IssuedToken> {
      const [pickup] = await db
        .delete(cliTokenPickups)
        .where(and(eq(cliTokenPickups.codeHash, sha256(code)), gt(cliTokenPickups.expiresAt, new Date())))
        .returning();
      if (!pickup) throw cliTokenGone();
      const [user] = await db.select().from(users).where(eq(users.id, pickup.userId));
      if (!user) throw cliTokenGone();
      return tokens.issue(user, 'manage', pickup.durationSeconds, {
        ssoOrganizationId: pickup.organizationId,
        client,
      });
    },
  };
}
export type CliTokens = ReturnType<typeof createCliTokens>;

/**
 * The assertion consumer's landing for `landing_page=clitoken` (`SamlRoutesDeps.cliLanding`): instead
 * of opening the console with the login's session, it sends the browser to /sso/cli/read with the code
 * of the CLI token in the URL's fragment. The session the login made is not handed to this browser, so it
 * is revoked: a CLI token login leaves the browser's own session as it was.
 */
export function cliLanding(deps: { cliTokens: CliTokens; tokens: TokenService }) {
  return async (_request: FastifyRequest, reply: FastifyReply, login: SsoLogin) => {
    await deps.tokens.revoke(login.issued.token.id);
    const code = await deps.cliTokens.owe({
      userId: login.issued.user.id,
      organizationId: login.organizationId,
      durationSeconds: login.durationSeconds ?? CLI_TOKEN_DEFAULT_SECONDS,
    });
    const consoleOrigin = new URL(login.redirectUri).origin;
    return reply.redirect(`${consoleOrigin}${CLI_TOKEN_READ_PATH}#code=${code}`, 303);
  };
}
