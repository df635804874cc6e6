import {
  EXPIRED_PERSONAL_ACCESS_TOKEN_LISTED_DAYS,
  MAX_PERSONAL_ACCESS_TOKENS,
  type PersonalAccessTokenInput,
  personalAccessTokenMessages,
} from '@berth/core';
import { and, count, desc, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import { recordAuditEventForEveryOrganizationOf } from '../../api/audit-events/audit-events.repo.ts';
import type { Db } from '../../db/client.ts';
import { tokens, users } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import type { SecurityNotices } from '../security-notices.ts';
import type { TokenRow, TokenService, UserRow } from '../tokens/token.service.ts';

const DAY_MS = 86_400_000;

/** A personal access token is a `tokens` row with a name (tables/identity.ts). */
const personal = isNotNull(tokens.name);

/**
 * Personal access tokens: named tokens of a user for git and the API, with their own scope and expiry.
 * They carry no browser session and hang from no other token, so logging out, ending an elevation or
 * "log out other sessions" leaves them alone; a change of how the account signs in (password, email,
 * 2FA) ends them with every other token (token.service.ts `revokeOtherTokens`).
 */
export function createPersonalAccessTokens(deps: { db: Db; tokens: TokenService; notices: SecurityNotices }) {
  const { db, notices } = deps;

  return {
    /** The user's tokens, newest first: live ones, and expired ones for a while (never revoked ones). */
    list(userId: string): Promise<TokenRow[]> {
      const listedSince = new Date(Date.now() - EXPIRED_PERSONAL_ACCESS_TOKEN_LISTED_DAYS * DAY_MS);
      return db
        .select()
        .from(tokens)
        .where(
          and(
            eq(tokens.userId, userId),
            personal,
            isNull(tokens.revokedAt),
            gt(tokens.expiresAt, listedSince),
          ),
        )
        .orderBy(desc(tokens.createdAt), desc(tokens.id));
    },

    /**
     * Makes a token and answers it with its secret, the one time it is shown. The count and the insert
     * hold the user's row, so two requests at once cannot pass the cap together.
     */
    async create(
      user: UserRow,
      input: PersonalAccessTokenInput,
    ): Promise<{ token: TokenRow; accessToken: string }> {
      const token = await db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
        const [live] = await tx
          .select({ count: count() })
          .from(tokens)
          .where(
            and(
              eq(tokens.userId, user.id),
              personal,
              isNull(tokens.revokedAt),
              gt(tokens.expiresAt, new Date()),
            ),
          );
        if ((live?.count ?? 0) >= MAX_PERSONAL_ACCESS_TOKENS) {
          throw unprocessable(personalAccessTokenMessages.tooMany);
        }
        const [row] = await tx
          .insert(tokens)
          .values({
            userId: user.id,
            name: input.name,
            scope: input.scope,
            expiresAt: new Date(Date.now() + input.expires_in_days * DAY_MS),
          })
          .returning();
        if (!row) throw new Error('Token insert returned nothing');
        await recordAuditEventForEveryOrganizationOf(tx, user.id, {
          action: 'api_token.create',
          actor: user,
          target: { type: 'api_token', id: row.id, name: input.name },
          detail: input.scope,
        });
        return row;
      });
      await notices.tell(user, { kind: 'access-token-added', name: token.name ?? '', scope: token.scope });
      return { token, accessToken: await deps.tokens.sign(token, user) };
    },
  };
}
export type PersonalAccessTokens = ReturnType<typeof createPersonalAccessTokens>;
