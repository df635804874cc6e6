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

/** What a summary could not name: environments the reader cannot see, and those beyond the listed. */
export interface RoleReachUnnamed {
  /** Environments the role reaches that the reader cannot see (their names are not theirs to read). */
  unseen: number;
  /** Environments the reader sees that the answer counted but did not list. */
  unlisted: number;
}

const NONE_UNNAMED: RoleReachUnnamed = { unseen: 0, unlisted: 0 };

function environmentsInWords(count: number): string {
  return count === 1 ? '1 environment' : `${count} environments`;
}

/**
 * A role's plain summary: one sentence per group of environments it reaches the same way, or one
 * sentence for the owner types, which hold no per-environment permissions (spec 1 §6). Environments it
 * reaches that the summary cannot name (`unnamed`) are counted in a last sentence, so a role admin who
 * sees fewer environments than the role reaches is never told it reaches none.
 */
export function rolePlainSummary(
  type: RoleType,
  environments: readonly RoleEnvironmentAccess[],
  unnamed: RoleReachUnnamed = NONE_UNNAMED,
): string[] {
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
  const unseen = Math.max(0, unnamed.unseen);
  const unlisted = Math.max(0, unnamed.unlisted);
  if (groups.size === 0 && unseen === 0 && unlisted === 0) {
    return [
      'Can sign in to the organization but reaches no environment yet: give the role permissions first.',
    ];
  }
  const sentences = [...groups.values()].map(
    ({ handles, scopes }) =>
      // The phrases hold commas and "and" of their own: semicolons keep them apart.
      `In ${listInWords(handles)}: can ${scopes.map((scope) => SCOPE_PLAIN_WORDS[scope]).join('; ')}.`,
  );
  const also = groups.size > 0 ? 'Also reaches' : 'Reaches';
  if (unlisted > 0) {
    sentences.push(
      `${also} ${unlisted} more ${unlisted === 1 ? 'environment' : 'environments'}, not listed here.`,
    );
  }
  if (unseen > 0) {
    const lead = groups.size > 0 || unlisted > 0 ? 'Also reaches' : 'Reaches';
    sentences.push(
      `${lead} ${environmentsInWords(unseen)} you cannot see; an owner can tell you what it may do there.`,
    );
  }
  return sentences;
}
