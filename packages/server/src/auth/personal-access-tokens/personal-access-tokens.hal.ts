import type { PersonalAccessTokenResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import type { TokenRow } from '../tokens/token.service.ts';

/** A personal access token as its owner sees it: everything but the token itself. */
export function toPersonalAccessTokenHal(token: TokenRow, urls: FamilyUrls): PersonalAccessTokenResource {
  return {
    id: token.id,
    _type: 'personal_access_token' as const,
    name: token.name ?? '',
    scope: token.scope,
    created_at: iso(token.createdAt),
    expires_at: iso(token.expiresAt),
    last_used_at: iso(token.lastUsedAt),
    expired: token.expiresAt.getTime() <= Date.now(),
    _links: links({
      // Revoked with `DELETE /tokens/:id`, as every token of the user (contract §5.1).
      self: `${urls.auth}/tokens/${token.id}`,
      user: `${urls.auth}/users/${token.userId}`,
    }),
  };
}
