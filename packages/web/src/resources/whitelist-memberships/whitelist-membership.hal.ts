import type { WhitelistMembershipResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.1 whitelist_membership: a member on the SSO exception list (the bypass allowlist). */
export interface WhitelistMembership {
  id: string;
  userId: string;
  createdAt: string;
}

export function fromWhitelistMembershipResource(resource: WhitelistMembershipResource): WhitelistMembership {
  return { id: idOf(resource), userId: linkId(resource, 'user') ?? '', createdAt: resource.created_at };
}
