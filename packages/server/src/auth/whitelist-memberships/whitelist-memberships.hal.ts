import type { WhitelistMembershipResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { whitelistMemberships } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type WhitelistMembershipRow = typeof whitelistMemberships.$inferSelect;

export function toWhitelistMembershipHal(
  row: WhitelistMembershipRow,
  urls: FamilyUrls,
): WhitelistMembershipResource {
  return {
    id: row.id,
    _type: 'whitelist_membership' as const,
    deleted_at: null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.auth}/whitelist_memberships/${row.id}`,
      organization: `${urls.auth}/organizations/${row.organizationId}`,
      user: `${urls.auth}/users/${row.userId}`,
    }),
  };
}
