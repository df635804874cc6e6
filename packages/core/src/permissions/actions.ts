// spec 1 §6 and spec 2 §6: every action a caller can take, with what it needs, written once. The server
// authorizes by action and the console disables controls by the same action, so the two cannot drift.
import { billingMessages } from '../billing/billing.ts';
import { type OperationAction, operationTypeEntry } from '../operations/operation-types.ts';
import {
  type Actor,
  can,
  hasBillingAccess,
  isAccountOwner,
  isOwner,
  permissionMessages,
  type Scope,
  scopeDenialMessage,
} from './permissions.ts';

/**
 * What an action needs: a scope on the environment it touches, or a kind of role in the organization
 * (`member`: any role there; `owner`: Account or Deploy Owner; `account_owner`: Account Owner;
 * `billing_owner`: Account or Billing Only Owner; `role_manager`: an owner or an admin of the role concerned).
 */
export type ActionRequirement =
  | { scope: Scope }
  | { role: 'member' }
  | { role: 'owner' }
  | { role: 'account_owner' }
  | { role: 'billing_owner' }
  | { role: 'role_manager' };

type RoleKind = 'member' | 'owner' | 'account_owner' | 'billing_owner' | 'role_manager';

const scope = (needed: Scope): ActionRequirement => ({ scope: needed });
const role = (needed: RoleKind): ActionRequirement => ({ role: needed });

export const ACTIONS = {
  'organization.update': role('account_owner'),
  // spec 1 §6: Single Sign-On is enabled only for the Account Owner.
  'sso.configure': role('account_owner'),

  // Creating a role is role management: the server has always refused it with that text (spec 1 §6).
  'role.create': role('role_manager'),
  'role.delete': role('owner'),
  'role.rename': role('role_manager'),
  'permission.grant': role('role_manager'),
  'permission.revoke': role('role_manager'),
  // spec 1 §6: owners remove members; only an Account Owner removes a holder of the owner or billing role.
  'member.remove': role('owner'),
  'owner_member.remove': role('account_owner'),
  // Another member's roles, as their member page lists them: for those who manage members, owners and
  // role admins (issue 15). The caller's `isRoleAdmin` is whether they admin any role of the organization.
  'member.roles.read': role('role_manager'),

  // What every member of the organization sees, environments aside (contract §1.11).
  'stack.read': role('member'),
  'source.read': role('member'),
  'cost.read': role('member'),
  'custom_resource.read': role('member'),
  // spec 3 §2 Home: every member has a home; its figures count only what the member may read.
  'home.read': role('member'),
  // spec 1 §6: only Account Owners view and change plans; what the plan allows (its limits and
  // autoscaling flags) every member may read, since the forms they use follow it.
  'plan.read': role('member'),
  'plan.change': role('account_owner'),
  // spec 1 §6 billing access: the billing detail's address, cards and payment method are the Account
  // Owner's and the Billing Only Owner's; whether it has a payment method every member reads (the
  // console's payment-method guard and trial notice run for all of them).
  'billing.read': role('member'),
  'billing.manage': role('billing_owner'),

  // A dedicated stack is billed to the organization ($499 a month): the Account Owner's call, as its
  // deprovision is (spec 2 §2). The request goes to support; the console offers it to them alone.
  'stack.request': role('account_owner'),

  'environment.create': role('owner'),
  'environment.read': scope('basic_read'),
  'environment.rename': scope('admin'),
  'environment.delete': scope('destroy'),

  'app.read': scope('basic_read'),
  'app.create': scope('deploy'),
  'app.rename': scope('deploy'),
  'app.configuration.read': scope('read'),
  // spec 2 §6: the app Dependencies tab needs read; the graph is derived from configuration values.
  'edge.read': scope('read'),
  'service.read': scope('basic_read'),
  'service.update': scope('deploy'),
  'service_definition.read': scope('basic_read'),
  'service_definition.create': scope('deploy'),
  'service_definition.delete': scope('deploy'),
  'release.read': scope('basic_read'),
  'image.read': scope('basic_read'),
  'code_scan_result.read': scope('basic_read'),
  'deployment.read': scope('basic_read'),
  'deployment.configuration.read': scope('read'),
  'operation.read': scope('basic_read'),
  'metrics.read': scope('read'),
  // What a service's processes print can hold anything they read: read, as its configuration.
  'service.logs.read': scope('read'),
  // spec 2 §6: Ops (observability) scales, so it sets the policy that scales for it.
  'service_sizing_policy.read': scope('basic_read'),
  'service_sizing_policy.update': scope('observability'),
  'sizing_recommendation.read': scope('basic_read'),

  'vhost.read': scope('basic_read'),
  'vhost.create': scope('deploy'),
  'vhost.update': scope('deploy'),
  'vhost.delete': scope('destroy'),
  // spec 2 §6: an endpoint's credentials need sensitive (which implies read; read alone is not enough).
  'vhost.credentials.read': scope('sensitive'),
  'certificate.read': scope('basic_read'),
  'certificate.private_key.read': scope('sensitive'),
  'certificate.create': scope('sensitive'),
  'certificate.update': scope('sensitive'),
  'certificate.delete': scope('sensitive'),

  'database.read': scope('basic_read'),
  'database.create': scope('deploy'),
  'database.rename': scope('deploy'),
  // Backups on or off, PITR on or off: what protects the data is the environment admin's call.
  'database.backups.update': scope('admin'),
  'database.unlink': scope('deploy'),
  // spec 2 §6: credentials need sensitive (read alone, "everything except database credentials", is not enough).
  'database.credentials.read': scope('sensitive'),
  'database_image.read': role('member'),
  'disk.read': scope('basic_read'),
  'backup.read': scope('basic_read'),
  'backup_retention_policy.read': scope('basic_read'),
  'backup_retention_policy.create': scope('admin'),
  'log_drain.read': scope('basic_read'),
  'log_drain.create': scope('observability'),
  'log_drain.delete': scope('observability'),
  'metric_drain.read': scope('basic_read'),
  'metric_drain.create': scope('observability'),
  'metric_drain.delete': scope('observability'),

  // Issue 38: the Security & Compliance dashboard and the activity reports (who did what, when) are read
  // with Full Visibility, the scope spec 3 §2 asks of the Security & Compliance entry. Asking for a report
  // now only reads what the caller may already read.
  'security.read': scope('read'),
  'activity_report.read': scope('read'),
  'activity_report.create': scope('read'),
} as const satisfies Record<string, ActionRequirement>;

/** Every action: the ones above and each operation type of the operation catalog (`app.deploy`, …). */
export type ActionName = keyof typeof ACTIONS | OperationAction;

/** What an action needs; an operation's comes from the operation catalog. */
export function actionRequirement(action: string): ActionRequirement | null {
  if (Object.hasOwn(ACTIONS, action)) return ACTIONS[action as keyof typeof ACTIONS];
  const dot = action.indexOf('.');
  const entry = dot === -1 ? null : operationTypeEntry(action.slice(0, dot), action.slice(dot + 1));
  return entry ? { scope: entry.scope } : null;
}

export function isActionName(value: unknown): value is ActionName {
  return typeof value === 'string' && actionRequirement(value) !== null;
}

/** What the caller's situation adds to the actor: the environment acted on, or whether they admin the role. */
export interface ActionContext {
  environmentId?: string;
  isRoleAdmin?: boolean;
}

/**
 * The reason the actor may not take the action (the spec's tooltip text), or null when they may. An
 * environment-scoped action without an environment is denied: there is nothing to act on.
 */
export function actionDenial(actor: Actor, action: ActionName, context: ActionContext = {}): string | null {
  const needed = actionRequirement(action);
  if (!needed) throw new Error(`Unknown action ${action}`);
  if ('scope' in needed) {
    const { environmentId } = context;
    if (environmentId === undefined) return scopeDenialMessage(needed.scope, '?');
    return can(actor, needed.scope, environmentId) ? null : scopeDenialMessage(needed.scope, environmentId);
  }
  switch (needed.role) {
    case 'member':
      // A non-member never sees the organization's resources at all (404), so this text is a fallback.
      return actor.roleTypes.length > 0 ? null : permissionMessages.memberOnly;
    case 'owner':
      return isOwner(actor) ? null : permissionMessages.ownerOnly;
    case 'account_owner':
      // The spec has one owner-only text, for Account Owner checks too (organization settings).
      return isAccountOwner(actor) ? null : permissionMessages.ownerOnly;
    case 'billing_owner':
      return hasBillingAccess(actor) ? null : billingMessages.billingOwnersOnly;
    case 'role_manager':
      return isOwner(actor) || context.isRoleAdmin ? null : permissionMessages.roleManagement;
  }
}

export function canAct(actor: Actor, action: ActionName, context: ActionContext = {}): boolean {
  return actionDenial(actor, action, context) === null;
}
