import type { TokenResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import { expiresInSeconds, type TokenRow } from './token.service.ts';

export function toTokenHal(token: TokenRow, accessToken: string, urls: FamilyUrls): TokenResource {
  return {
    id: token.id,
    _type: 'token' as const,
    access_token: accessToken,
    token_type: 'bearer' as const,
    scope: token.scope,
    expires_in: expiresInSeconds(token),
    expires_at: iso(token.expiresAt),
    created_at: iso(token.createdAt),
    _links: links({
      self: `${urls.auth}/tokens/${token.id}`,
      user: `${urls.auth}/users/${token.userId}`,
      actor: token.actorId ? `${urls.auth}/users/${token.actorId}` : null,
    }),
  };
}
