import { isOwner, type RoleType, SCOPE_LABELS, SCOPES, type Scope, scopeGrants } from './permissions.ts';

// spec 1 §6 "In the permission matrix each cell is granted, inherited or denied."

export type PermissionCellState = 'granted' | 'inherited' | 'denied';

/**
 * The state of one cell (a scope on one environment) of a role's permission matrix, from the scopes the
 * role holds there.
 * - The Owner role (and the Deploy Owner role, which passes every check too) inherits all.
 * - A scope implied by another scope the role holds is inherited: Admin marks all other scopes inherited,
 *   any permission marks basic_read inherited, and (core's one rule, `scopeGrants`) deploy marks Ops and
 *   sensitive marks Full Visibility, so the matrix never shows a scope the server would grant as denied.
 * - Otherwise a held scope is granted and any other is denied.
 * Inherited cells appear checked and disabled.
 */
export function permissionCellState(
  roleType: RoleType,
  held: readonly Scope[],
  scope: Scope,
): PermissionCellState {
  if (isOwner({ roleTypes: [roleType] })) return 'inherited';
  if (held.some((other) => other !== scope && scopeGrants(other, scope))) return 'inherited';
  return held.includes(scope) ? 'granted' : 'denied';
}

/** The cells of one environment's row, in the matrix's column order (SCOPES). */
export function permissionRowStates(
  roleType: RoleType,
  held: readonly Scope[],
): Record<Scope, PermissionCellState> {
  return Object.fromEntries(
    SCOPES.map((scope) => [scope, permissionCellState(roleType, held, scope)]),
  ) as Record<Scope, PermissionCellState>;
}

export interface RolePermissionRef {
  roleId: string;
  environmentId: string;
  scope: Scope;
}

/** The scopes a role holds, by environment id. */
export function scopesByEnvironment(
  permissions: readonly RolePermissionRef[],
  roleId: string,
): Map<string, Scope[]> {
  const byEnvironment = new Map<string, Scope[]>();
  for (const permission of permissions) {
    if (permission.roleId !== roleId) continue;
    const scopes = byEnvironment.get(permission.environmentId) ?? [];
    if (!scopes.includes(permission.scope)) scopes.push(permission.scope);
    byEnvironment.set(permission.environmentId, scopes);
  }
  return byEnvironment;
}

/**
 * Issue 41: the matrix's column names in everyday words. The spec's labels (SCOPE_LABELS) stay beside them
 * as the columns' second line and in their tooltips: the spec is the source of truth for each scope.
 */
export const SCOPE_EVERYDAY_LABELS: Record<Scope, string> = {
  admin: 'Everything',
  read: 'See all',
  basic_read: 'See',
  deploy: 'Deploy',
  destroy: 'Delete',
  observability: 'Scale & restart',
  sensitive: 'See secrets',
  tunnel: 'Open tunnels',
};

/**
 * Why an inherited cell is checked, in words for its accessible description and tooltip: the role's type
 * (the owner types pass every check), else the held scope that gives it, Environment Admin first. Null
 * for a cell that is not inherited.
 */
export function inheritanceReason(roleType: RoleType, held: readonly Scope[], scope: Scope): string | null {
  if (permissionCellState(roleType, held, scope) !== 'inherited') return null;
  if (isOwner({ roleTypes: [roleType] }))
    return 'Inherited: this role passes every check in every environment';
  const giver = SCOPES.find((other) => other !== scope && held.includes(other) && scopeGrants(other, scope));
  if (!giver) return null;
  if (giver !== 'admin' && scope === 'basic_read') return 'Inherited: any permission gives Basic Visibility';
  return `Inherited from ${SCOPE_LABELS[giver]}`;
}
