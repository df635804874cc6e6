import { ROLE_TYPES, type RoleType } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 role. */
export interface RoleHal extends HalResource {
  name: string;
  type: string;
  scim_created?: boolean;
  created_at?: string;
}

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

export function fromRoleHal(role: RoleHal): Role {
  return {
    id: idOf(role),
    name: role.name ?? '',
    type: toRoleType(role.type),
    organizationId: linkId(role, 'organization'),
    scimCreated: role.scim_created === true,
    createdAt: role.created_at ?? '',
  };
}
