import {
  type MembershipResource,
  type OrganizationResource,
  ROLE_ENVIRONMENT_ACCESS_LIMIT,
  type RoleEnvironmentAccessResource,
  type RoleResource,
  type Scope,
} from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { memberships, organizations, roles } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type OrganizationRow = typeof organizations.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

/** `reauthRequired`: the caller's token may not use the organization until they sign in again (SSO). */
export function toOrganizationHal(
  org: OrganizationRow,
  urls: FamilyUrls,
  reauthRequired: boolean,
): OrganizationResource {
  const self = `${urls.auth}/organizations/${org.id}`;
  return {
    id: org.id,
    _type: 'organization' as const,
    name: org.name,
    sso_enforced: org.ssoEnforced,
    address: org.address,
    city: org.city,
    state: org.state,
    zip: org.zip,
    primary_phone: org.primaryPhone,
    emergency_phone: org.emergencyPhone,
    ops_alert_email: org.opsAlertEmail,
    security_alert_email: org.securityAlertEmail,
    reauth_required: reauthRequired,
    created_at: iso(org.createdAt),
    updated_at: iso(org.updatedAt),
    _links: links({
      self,
      users: `${self}/users`,
      roles: `${self}/roles`,
      invitations: `${self}/invitations`,
      // Contract §4.1: its id (the organization's) drives every billing call and the payment-method guard.
      billing_detail: `${urls.billing}/billing_details/${org.id}`,
    }),
  };
}

export function toRoleHal(role: RoleRow, urls: FamilyUrls): RoleResource {
  return {
    id: role.id,
    _type: 'role' as const,
    name: role.name,
    type: role.type,
    scim_created: role.scimCreated,
    created_at: iso(role.createdAt),
    updated_at: iso(role.updatedAt),
    _links: links({
      self: `${urls.auth}/roles/${role.id}`,
      organization: `${urls.auth}/organizations/${role.organizationId}`,
      memberships: `${urls.auth}/roles/${role.id}/memberships`,
      users: `${urls.auth}/roles/${role.id}/users`,
    }),
  };
}

export function toMembershipHal(membership: MembershipRow, urls: FamilyUrls): MembershipResource {
  return {
    id: membership.id,
    _type: 'membership' as const,
    privileged: membership.privileged,
    created_at: iso(membership.createdAt),
    updated_at: iso(membership.updatedAt),
    _links: links({
      self: `${urls.auth}/memberships/${membership.id}`,
      user: `${urls.auth}/users/${membership.userId}`,
      role: `${urls.auth}/roles/${membership.roleId}`,
    }),
  };
}

/** One environment a role reaches, with its scopes there, as the roles routes read it. */
export interface RoleReachRow {
  id: string;
  handle: string;
  scopes: Scope[];
}

/**
 * Issue 41 `GET /roles/:id/environment_access`: the environments the caller sees (`seen`, ordered by
 * handle), the first ROLE_ENVIRONMENT_ACCESS_LIMIT named, and how many the role reaches out of their sight.
 */
export function toRoleEnvironmentAccessHal(
  role: RoleRow,
  seen: readonly RoleReachRow[],
  unseenCount: number,
  urls: FamilyUrls,
): RoleEnvironmentAccessResource {
  return {
    _type: 'role_environment_access' as const,
    environments: seen
      .slice(0, ROLE_ENVIRONMENT_ACCESS_LIMIT)
      .map(({ id, handle, scopes }) => ({ id, handle, scopes })),
    unseen_environment_count: unseenCount,
    unlisted_environment_count: Math.max(0, seen.length - ROLE_ENVIRONMENT_ACCESS_LIMIT),
    _links: links({
      self: `${urls.auth}/roles/${role.id}/environment_access`,
      role: `${urls.auth}/roles/${role.id}`,
    }),
  };
}
