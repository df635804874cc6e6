import type { UserRow } from '../auth/tokens/token.service.ts';
import type { roles, scimUsers } from '../db/schema.ts';
import { iso } from '../http/hal.ts';
import { GROUP_SCHEMA, USER_SCHEMA } from './scim-schemas.ts';

export type ScimUserRow = typeof scimUsers.$inferSelect;
export type RoleRow = typeof roles.$inferSelect;

/** A provisioned user: the Berth user and what the identity provider said of them. */
export interface ProvisionedUser {
  user: UserRow;
  identity: ScimUserRow;
}

export interface GroupMember {
  id: string;
  name: string;
}

const later = (a: Date, b: Date) => (a.getTime() >= b.getTime() ? a : b);

/** RFC 7643 §4.1 User, as Berth holds it: userName is the email (spec 1 §9), the id the Berth user's. */
export function toScimUser(row: ProvisionedUser, groups: GroupMember[], baseUrl: string) {
  const { user, identity } = row;
  const location = `${baseUrl}/Users/${user.id}`;
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(identity.externalId !== null ? { externalId: identity.externalId } : {}),
    userName: user.email,
    name: {
      formatted: user.name,
      ...(identity.givenName !== null ? { givenName: identity.givenName } : {}),
      ...(identity.familyName !== null ? { familyName: identity.familyName } : {}),
    },
    displayName: user.name,
    emails: [{ value: user.email, type: 'work', primary: true }],
    active: identity.active,
    groups: groups.map((group) => ({
      value: group.id,
      display: group.name,
      $ref: `${baseUrl}/Groups/${group.id}`,
    })),
    meta: {
      resourceType: 'User',
      created: iso(identity.createdAt),
      lastModified: iso(later(identity.updatedAt, user.updatedAt)),
      location,
    },
  };
}
export type ScimUser = ReturnType<typeof toScimUser>;

/** RFC 7643 §4.2 Group: a role of the organization created by provisioning. */
export function toScimGroup(role: RoleRow, members: GroupMember[] | null, baseUrl: string) {
  return {
    schemas: [GROUP_SCHEMA],
    id: role.id,
    displayName: role.name,
    // Left out when the request excluded it (a large group's members are not read for nothing).
    ...(members !== null
      ? {
          members: members.map((member) => ({
            value: member.id,
            display: member.name,
            $ref: `${baseUrl}/Users/${member.id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: iso(role.createdAt),
      lastModified: iso(role.updatedAt),
      location: `${baseUrl}/Groups/${role.id}`,
    },
  };
}
export type ScimGroup = ReturnType<typeof toScimGroup>;
