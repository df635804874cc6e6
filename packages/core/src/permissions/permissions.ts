// spec 1 §6: role types, environment scopes and the access rules, written once for server and console.

export const ROLE_TYPES = [
  'owner',
  'platform_owner',
  'billing_owner',
  'platform_user',
  'compliance_user',
  'compliance_owner',
] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

export const ROLE_TYPE_LABELS: Record<RoleType, string> = {
  owner: 'Account Owner',
  platform_owner: 'Deploy Owner',
  billing_owner: 'Billing Only Owner',
  platform_user: 'Platform User',
  compliance_user: 'Compliance User',
  compliance_owner: 'Compliance Owner',
};

export const SCOPES = [
  'admin',
  'read',
  'basic_read',
  'deploy',
  'destroy',
  'observability',
  'sensitive',
  'tunnel',
] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_LABELS: Record<Scope, string> = {
  admin: 'Environment Admin',
  read: 'Full Visibility',
  basic_read: 'Basic Visibility',
  deploy: 'Deployment',
  destroy: 'Destroy',
  observability: 'Ops',
  sensitive: 'Sensitive Access',
  tunnel: 'Tunnel',
};

/** spec 2 §6: what each scope allows on an environment, in a user's words (issue 20's matrix legend). */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  admin: 'Everything below, and renaming the environment',
  read: 'Sees everything, configuration values included, except database credentials',
  basic_read: 'Sees the environment and its resources, not their configuration',
  deploy: 'Creates, deploys, configures and restarts apps and databases (and has Ops)',
  destroy: 'Deprovisions apps, databases and endpoints, and deletes the environment',
  observability: 'Ops: drains, restarts and scaling',
  sensitive: 'Configuration, database credentials and certificates (and has Full Visibility)',
  tunnel: 'Opens tunnels into databases, without their credentials',
};

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** What the engine needs to know about the caller: the types of their roles and their permissions. */
export interface Actor {
  roleTypes: readonly RoleType[];
  permissions: readonly { environmentId: string; scope: Scope }[];
}

/**
 * The one way to build the caller's actor in an organization, on the server and in the console: the
 * types of their roles there, and the environment permissions granted to those roles.
 */
export function buildActor(
  roles: readonly { id: string; type: RoleType; organizationId: string | null }[],
  granted: readonly { roleId: string; environmentId: string | number; scope: Scope }[],
  organizationId: string,
): Actor {
  const own = roles.filter((role) => role.organizationId === organizationId);
  const roleIds = new Set(own.map((role) => role.id));
  return {
    roleTypes: own.map((role) => role.type),
    permissions: granted
      .filter((permission) => roleIds.has(permission.roleId))
      .map((permission) => ({ environmentId: String(permission.environmentId), scope: permission.scope })),
  };
}

export function isOwner(actor: Pick<Actor, 'roleTypes'>): boolean {
  return actor.roleTypes.some((type) => type === 'owner' || type === 'platform_owner');
}

export function isAccountOwner(actor: Pick<Actor, 'roleTypes'>): boolean {
  return actor.roleTypes.includes('owner');
}

export function hasBillingAccess(actor: Pick<Actor, 'roleTypes'>): boolean {
  return actor.roleTypes.some((type) => type === 'owner' || type === 'billing_owner');
}

/** Does holding `granted` satisfy a check for `wanted`? (admin grants all; deploy grants observability; sensitive grants read) */
export function scopeGrants(granted: Scope, wanted: Scope): boolean {
  if (granted === wanted || granted === 'admin') return true;
  if (wanted === 'basic_read') return true; // any permission grants basic_read
  if (granted === 'deploy' && wanted === 'observability') return true;
  if (granted === 'sensitive' && wanted === 'read') return true;
  return false;
}

export function can(actor: Actor, scope: Scope, environmentId: string): boolean {
  if (isOwner(actor)) return true;
  return actor.permissions.some(
    (permission) => permission.environmentId === environmentId && scopeGrants(permission.scope, scope),
  );
}

export const permissionMessages = {
  ownerOnly: 'You do not have a valid role type (platform_owner, owner) to access this resource.',
  roleManagement: 'You are not an owner or role admin.',
  fullVisibilityAnywhere: 'Requires Full Visibility on any Environment',
  /** spec 1 §6: owner-type roles cannot be edited. */
  ownerRoleLocked: 'Owner roles cannot be edited',
  memberOnly: 'You are not a member of this organization.',
} as const;

/**
 * spec 1 §6: a platform owner (Deploy Owner) who is not an Account Owner "cannot see the owner and
 * billing_owner roles", nor so who holds them. One who also holds the billing role sees that one: it is
 * theirs. Everyone else sees every role.
 */
export function isRoleVisible(actor: Pick<Actor, 'roleTypes'>, type: RoleType): boolean {
  if (!isOwner(actor) || isAccountOwner(actor)) return true;
  if (type === 'owner') return false;
  if (type === 'billing_owner') return hasBillingAccess(actor);
  return true;
}

/** The role types `isRoleVisible` lets the actor see (for filtering rows by type in bulk). */
export function visibleRoleTypes(actor: Pick<Actor, 'roleTypes'>): RoleType[] {
  return ROLE_TYPES.filter((type) => isRoleVisible(actor, type));
}

/** spec 1 §6: managing a role (its members, its environment permissions) needs an owner or that role's admin. */
export function canManageRole(actor: Pick<Actor, 'roleTypes'>, isRoleAdmin: boolean): boolean {
  return isOwner(actor) || isRoleAdmin;
}

/**
 * spec 1 §6 (+ contract: "a platform_owner cannot grant owner"): the members of the owner and billing_owner
 * roles are managed by Account Owners only; other roles by owners and the role's admins.
 */
export function canManageRoleMembers(
  actor: Pick<Actor, 'roleTypes'>,
  roleType: RoleType,
  isRoleAdmin: boolean,
): boolean {
  if (roleType === 'owner' || roleType === 'billing_owner') return isAccountOwner(actor);
  return canManageRole(actor, isRoleAdmin);
}

/** spec 1 §8: provisioned (SCIM-managed) users keep their provisioned roles; such roles are locked. */
export const scimMessages = {
  cannotAdd: 'Cannot add user: user and role are SCIM-managed',
  cannotRemove: 'Cannot remove: user and role are SCIM-managed',
  roleLocked: 'This role is managed via provisioning and cannot be edited.',
  userLocked: 'This user is managed via provisioning and cannot be edited.',
  /** A provisioned user's name and email come from the identity provider (contract §4.1 external_id). */
  nameManaged: 'Your name is managed by your identity provider through provisioning.',
  emailManaged: 'Your email address is managed by your identity provider through provisioning.',
} as const;

/** spec 1 §6: owner-type roles and roles created through provisioning cannot be renamed or deleted. */
export function isRoleEditable(role: { type: RoleType; scimCreated: boolean }): boolean {
  return roleTakesEnvironmentPermissions(role.type) && !role.scimCreated;
}

/** spec 1 §6: new roles are made by owners (Account Owners and Deploy Owners). */
export function canCreateRole(actor: Pick<Actor, 'roleTypes'>): boolean {
  return isOwner(actor);
}

/**
 * Deleting a role also drops the environment permissions owners gave it, so it is left to owners; a
 * role's admins manage its members and name only.
 */
export function canDeleteRole(actor: Pick<Actor, 'roleTypes'>): boolean {
  return isOwner(actor);
}

/**
 * spec 1 §6: owner, platform_owner and billing_owner roles have no Environments tab: owners already pass
 * every check and billing owners have no platform access, so they hold no per-environment permissions.
 */
export function roleTakesEnvironmentPermissions(type: RoleType): boolean {
  return type !== 'owner' && type !== 'platform_owner' && type !== 'billing_owner';
}

export function scopeDenialMessage(scope: Scope, environmentId: string): string {
  return `You do not have "${scope}" permissions for this environment (id:${environmentId})`;
}

/** The tooltip for a button gated by a scope, or null when the actor may act. */
export function scopeDenial(actor: Actor, scope: Scope, environmentId: string): string | null {
  return can(actor, scope, environmentId) ? null : scopeDenialMessage(scope, environmentId);
}

/** spec 3 §2: Security & Compliance needs Full Visibility on any environment. */
export function hasFullVisibilityAnywhere(actor: Actor): boolean {
  return isOwner(actor) || actor.permissions.some((permission) => scopeGrants(permission.scope, 'read'));
}

/** spec 1 §6 sort order of roles. */
export function roleTypeOrder(type: RoleType): number {
  return ROLE_TYPES.indexOf(type);
}
