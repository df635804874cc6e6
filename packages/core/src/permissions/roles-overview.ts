import { type Actor, isOwner, isRoleVisible, ROLE_TYPES, type RoleType, type Scope } from './permissions.ts';
import { permissionCellState, type RolePermissionRef, scopesByEnvironment } from './role-matrix.ts';

export interface RoleSummary {
  id: string;
  name: string;
  type: RoleType;
  createdAt: string;
}

/**
 * spec 1 §6 sort order: owner, platform owner, billing owner, platform user, compliance user, compliance
 * owner, then creation date, newest first (contract §4.1 role: "newest-first ordering after owners").
 */
export function compareRoles(
  a: Pick<RoleSummary, 'type' | 'createdAt'>,
  b: Pick<RoleSummary, 'type' | 'createdAt'>,
) {
  const byType = ROLE_TYPES.indexOf(a.type) - ROLE_TYPES.indexOf(b.type);
  if (byType !== 0) return byType;
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/**
 * spec 1 §6: compliance roles are hidden from role lists, and the roles a Deploy Owner cannot see
 * (`isRoleVisible`: the owner and billing_owner roles) are not listed to them.
 */
export function isRoleListed(actor: Pick<Actor, 'roleTypes'>, type: RoleType): boolean {
  if (type === 'compliance_user' || type === 'compliance_owner') return false;
  return isRoleVisible(actor, type);
}

/** spec 1 §2: the query filters of the roles overview. Null means no filter. */
export interface RoleFilters {
  roleId: string | null;
  userId: string | null;
  environmentId: string | null;
}

export const ROLE_FILTER_PARAMS = {
  roleId: 'role_id',
  userId: 'user_id',
  environmentId: 'environment_id',
} as const;

/**
 * Does a role pass the overview's filters? `memberIds` are the role's members; a role passes the
 * environment filter when it holds a permission there, or when it is an owner role (owners inherit all).
 */
export function roleMatchesFilters(
  role: Pick<RoleSummary, 'id' | 'type'>,
  filters: RoleFilters,
  memberIds: readonly string[],
  permissions: readonly RolePermissionRef[],
): boolean {
  if (filters.roleId !== null && role.id !== filters.roleId) return false;
  if (filters.userId !== null && !memberIds.includes(filters.userId)) return false;
  if (filters.environmentId !== null) {
    const { environmentId } = filters;
    if (isOwner({ roleTypes: [role.type] })) return true;
    return permissions.some((p) => p.roleId === role.id && p.environmentId === environmentId);
  }
  return true;
}

/** spec 1 §9: the Roles CSV columns, in order. */
export const ROLES_CSV_COLUMNS = [
  'organization',
  'role',
  'users',
  'environment',
  'environment_admin',
  'full_visibility',
  'basic_visibility',
  'deployment',
  'destroy',
  'ops',
  'sensitive_access',
  'tunnel',
] as const;

/** The scope behind each scope column of the Roles CSV (its labels, spec 1 §6, in snake case). */
const CSV_SCOPES: readonly Scope[] = [
  'admin',
  'read',
  'basic_read',
  'deploy',
  'destroy',
  'observability',
  'sensitive',
  'tunnel',
];

export interface RolesCsvInput {
  organizationName: string;
  /** In the order the export lists them (the overview's order). */
  roles: readonly Pick<RoleSummary, 'id' | 'name' | 'type'>[];
  /** Member names (or emails) by role id. */
  usersByRole: ReadonlyMap<string, readonly string[]>;
  environments: readonly { id: string; handle: string }[];
  permissions: readonly RolePermissionRef[];
}

/**
 * The rows of the Roles CSV: one per role and environment the role reaches (every environment for owner
 * roles, which inherit all), each scope column true when the matrix shows the cell granted or inherited.
 * A role that reaches no environment still gets one row, with the environment and scopes left empty.
 */
export function rolesCsvRows(input: RolesCsvInput): string[][] {
  const rows: string[][] = [];
  for (const role of input.roles) {
    const users = (input.usersByRole.get(role.id) ?? []).join(', ');
    const held = scopesByEnvironment(input.permissions, role.id);
    const reached = isOwner({ roleTypes: [role.type] })
      ? input.environments
      : input.environments.filter((environment) => held.has(environment.id));
    const head = [input.organizationName, role.name, users];
    if (reached.length === 0) {
      rows.push([...head, '', ...CSV_SCOPES.map(() => '')]);
      continue;
    }
    for (const environment of reached) {
      const scopes = held.get(environment.id) ?? [];
      rows.push([
        ...head,
        environment.handle,
        ...CSV_SCOPES.map((scope) => String(permissionCellState(role.type, scopes, scope) !== 'denied')),
      ]);
    }
  }
  return rows;
}
