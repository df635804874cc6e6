import { type SessionResource, sessionCollection } from '@berth/core';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { tokens as tokensTable } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection, iso, links } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute } from '../../http/route-schemas.ts';
import type { TokenRow, TokenService } from '../tokens/token.service.ts';
import { SESSION_COOKIE } from '../tokens/tokens.routes.ts';

export function toSessionHal(token: TokenRow, current: boolean, urls: FamilyUrls): SessionResource {
  const self = `${urls.auth}/tokens/${token.id}`;
  return {
    id: token.id,
    _type: 'session' as const,
    scope: token.scope,
    created_at: iso(token.createdAt),
    expires_at: iso(token.expiresAt),
    last_used_at: iso(token.lastUsedAt),
    user_agent: token.userAgent,
    ip_address: token.ipAddress,
    current,
    impersonated: !!token.actorId,
    _links: links({
      self,
      token: self,
      user: `${urls.auth}/users/${token.userId}`,
      actor: token.actorId ? `${urls.auth}/users/${token.actorId}` : null,
    }),
  };
}

export interface SessionsDeps {
  db: Db;
  urls: FamilyUrls;
  guard: AuthGuard;
  tokens: TokenService;
}

/**
 * The caller's live sessions (Berth addition to contract §5.2, for "Log out other sessions"): every
 * unexpired, unrevoked token but the short-lived elevated ones and personal access tokens, newest
 * first. Revoking one is `DELETE /tokens/:id`; all but the current ones,
 * `POST /tokens/revoke_all_accessible`.
 */
export async function sessionsRoutes(fastify: FastifyInstance, deps: SessionsDeps) {
  const { db, urls, guard, tokens } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/users/:id/sessions',
    idRoute(['Tokens'], 'The caller’s live sessions and tokens', { 200: sessionCollection }),
    async (request) => {
      const caller = await guard.requireCaller(request);
      if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
      const userId = caller.user.id;
      const rows = await db
        .select()
        .from(tokensTable)
        .where(
          and(
            eq(tokensTable.userId, userId),
            isNull(tokensTable.revokedAt),
            gt(tokensTable.expiresAt, new Date()),
            ne(tokensTable.scope, 'elevated'),
            // Personal access tokens are no sessions: they have their own list.
            isNull(tokensTable.name),
          ),
        )
        .orderBy(desc(tokensTable.createdAt), desc(tokensTable.id));
      // The bearer the list is asked with and the browser session of its cookie are "this session".
      const current = new Set(await tokens.requestSession(userId, caller, request.cookies[SESSION_COOKIE]));
      return collection(
        'sessions',
        `${urls.auth}/users/${userId}/sessions`,
        rows.map((row) => toSessionHal(row, current.has(row.id), urls)),
      );
    },
  );
}
