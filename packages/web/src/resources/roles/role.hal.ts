import {
  ROLE_TYPES,
  type RoleEnvironmentAccess,
  type RoleEnvironmentAccessResource,
  type RoleReachUnnamed,
  type RoleResource,
  type RoleType,
} from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.1 role as the console reads it (roles, members, environment permissions). */
export interface Role {
  id: string;
  name: string;
  type: RoleType;
  organizationId: string | null;
  scimCreated: boolean;
  createdAt: string;
}

function toRoleType(value: string): RoleType {
  // spec 1 §3: platform_user is the default type.
  return (ROLE_TYPES as readonly string[]).includes(value) ? (value as RoleType) : 'platform_user';
}

export function fromRoleResource(role: RoleResource): Role {
  return {
    id: idOf(role),
    name: role.name,
    type: toRoleType(role.type),
    organizationId: linkId(role, 'organization'),
    scimCreated: role.scim_created,
    createdAt: role.created_at,
  };
}

/** Where a role reaches (issue 41): the environments named for the reader, and what could not be named. */
export interface RoleReach {
  environments: RoleEnvironmentAccess[];
  unnamed: RoleReachUnnamed;
}

export function fromRoleEnvironmentAccessResource(resource: RoleEnvironmentAccessResource): RoleReach {
  return {
    environments: resource.environments.map(({ handle, scopes }) => ({ handle, scopes })),
    unnamed: {
      unseen: resource.unseen_environment_count,
      unlisted: resource.unlisted_environment_count,
    },
  };
}
