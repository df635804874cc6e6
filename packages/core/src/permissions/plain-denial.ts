// Issue 20: the spec's denial texts name the rule ("You do not have "sensitive" permissions for this
// environment (id:12)"). Beside them the console says, in a user's words, what is missing, where, and
// whom to ask. The spec's text stays as it is (the server answers it and tooltips show it first).
import { isScope, permissionMessages, SCOPE_LABELS, type Scope } from './permissions.ts';

/** The longest denial text read; anything longer is not one of ours. */
const MAX_DENIAL_LENGTH = 200;
const SCOPE_DENIAL =
  /^You do not have "([a-z_]{1,20})" permissions for this environment \(id:([^()]{1,40})\)\.?$/;

/** The scope and environment a scope denial names (scopeDenialMessage's text), or null for other texts. */
export function readScopeDenial(text: string): { scope: Scope; environmentId: string } | null {
  if (text.length > MAX_DENIAL_LENGTH) return null;
  const match = SCOPE_DENIAL.exec(text);
  if (!match || !isScope(match[1])) return null;
  return { scope: match[1], environmentId: match[2] as string };
}

const ASK_FOR_SCOPE = 'Ask an owner of the organization, or an admin of one of your roles, to grant it.';

/**
 * The plain words for a denial text, or null when the text is already plain (or not a denial).
 * `environmentName` gives an environment's handle by id when the console knows it.
 */
export function plainDenial(
  text: string,
  environmentName?: (environmentId: string) => string | undefined,
): string | null {
  const scoped = readScopeDenial(text);
  if (scoped) {
    const name = scoped.environmentId === '?' ? undefined : environmentName?.(scoped.environmentId);
    const where = name ? `the ${name} environment` : 'this environment';
    return `Needs ${SCOPE_LABELS[scoped.scope]} on ${where}. ${ASK_FOR_SCOPE}`;
  }
  switch (text) {
    case permissionMessages.ownerOnly:
      return 'Only owners of the organization can do this. Ask an Account Owner.';
    case permissionMessages.roleManagement:
      return "Only owners of the organization and this role's admins can do this.";
    case permissionMessages.fullVisibilityAnywhere:
      return `Needs Full Visibility on at least one environment. ${ASK_FOR_SCOPE}`;
    default:
      return null;
  }
}
