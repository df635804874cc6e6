import { type RoleType, SCOPES, type Scope, scopeGrants } from './permissions.ts';

// Issue 41: the invite form says what the chosen role lets a person do, in everyday words, from the
// role's type and its permissions (spec 1 §6), so an inviter need not read the matrix first.

/** What each scope lets a person do in one environment, phrased to follow "can". */
export const SCOPE_PLAIN_WORDS: Record<Scope, string> = {
  admin: 'do anything, including renaming the environment',
  read: 'see everything, configuration values included, except database passwords',
  basic_read: 'see its apps and databases, but not their configuration',
  deploy: 'create, deploy, configure and restart apps and databases',
  destroy: 'delete apps, databases and endpoints, and the environment itself',
  observability: 'scale and restart services and set up log and metric drains',
  sensitive: 'see everything, secrets included: configuration values, database passwords and certificates',
  tunnel: 'open tunnels into databases, without seeing their passwords',
};

export interface RoleEnvironmentAccess {
  /** The environment's handle, as the console names it. */
  handle: string;
  /** The scopes the role holds there. */
  scopes: readonly Scope[];
}

/**
 * The scopes a person holding `held` may use (core's one rule, `scopeGrants`), minus those another
 * of them already says in plain words: admin says all, "see everything" says "see its apps", and
 * the secrets' sentence says "see everything".
 */
function plainScopes(held: readonly Scope[]): Scope[] {
  const effective = SCOPES.filter((scope) => held.some((granted) => scopeGrants(granted, scope)));
  if (effective.includes('admin')) return ['admin'];
  return effective.filter(
    (scope) =>
      !(scope === 'basic_read' && effective.includes('read')) &&
      !(scope === 'read' && effective.includes('sensitive')),
  );
}

/** "a", "a and b", "a, b and c". */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * A role's plain summary: one sentence per group of environments it reaches the same way, or one
 * sentence for the owner types, which hold no per-environment permissions (spec 1 §6).
 */
export function rolePlainSummary(type: RoleType, environments: readonly RoleEnvironmentAccess[]): string[] {
  switch (type) {
    case 'owner':
      return ['Can do everything: every environment, billing, members, roles and organization settings.'];
    case 'platform_owner':
      return ['Can do everything in every environment and manage members and roles, but not billing.'];
    case 'billing_owner':
      return ['Can manage billing only: plans, payment methods and invoices. No access to environments.'];
    case 'compliance_owner':
      return [
        'Can see the Security & Compliance dashboard and manage its reports. No access to environments.',
      ];
    case 'compliance_user':
      return ['Can see the Security & Compliance dashboard. No access to environments.'];
    case 'platform_user':
      break;
  }
  // Environments reached the same way share one sentence, in the order they were given.
  const groups = new Map<string, { handles: string[]; scopes: Scope[] }>();
  for (const environment of environments) {
    const scopes = plainScopes(environment.scopes);
    if (scopes.length === 0) continue;
    const key = scopes.join(' ');
    const group = groups.get(key) ?? { handles: [], scopes };
    group.handles.push(environment.handle);
    groups.set(key, group);
  }
  if (groups.size === 0) {
    return [
      'Can sign in to the organization but reaches no environment yet: give the role permissions first.',
    ];
  }
  return [...groups.values()].map(
    ({ handles, scopes }) =>
      // The phrases hold commas and "and" of their own: semicolons keep them apart.
      `In ${listInWords(handles)}: can ${scopes.map((scope) => SCOPE_PLAIN_WORDS[scope]).join('; ')}.`,
  );
}
