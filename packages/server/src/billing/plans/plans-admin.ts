import { isPlanName, PLAN_NAMES, type PlanName } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { activePlans, organizations, plans } from '../../db/schema.ts';
import { isUuid } from '../../http/ids.ts';
import { DEFAULT_AVAILABLE_PLANS } from './plans.service.ts';

export const PLANS_USAGE = `  plans list                        the plans and their figures
  plans set PLAN FIELD=VALUE ...    change a plan's figures (fields as the API names them, e.g.
                                    vhost_limit=5 environment_limit=none horizontal_autoscaling=true)
  plans assign ORG_ID PLAN          put an organization on a plan (whatever its owners may choose)
  plans available ORG_ID PLAN,...   the plans an organization's owners may choose on the Plans page`;

/** A usage mistake: printed as is, with the command's usage. */
export class PlansUsageError extends Error {}

type PlanRow = typeof plans.$inferSelect;

/** The figures the operator may set, by their API names: a whole number, a number or none, or a flag. */
const FIELDS = {
  cost_cents: { column: 'costCents', kind: 'count' },
  container_memory_limit: { column: 'containerMemoryLimit', kind: 'count' },
  included_container_mb: { column: 'includedContainerMb', kind: 'count' },
  disk_limit: { column: 'diskLimit', kind: 'count' },
  included_disk_gb: { column: 'includedDiskGb', kind: 'count' },
  vhost_limit: { column: 'vhostLimit', kind: 'count' },
  included_vhosts: { column: 'includedVhosts', kind: 'count' },
  environment_limit: { column: 'environmentLimit', kind: 'countOrNone' },
  ephemeral_session_limit: { column: 'ephemeralSessionLimit', kind: 'count' },
  manual_backup_limit_per_db: { column: 'manualBackupLimitPerDb', kind: 'count' },
  automated_backup_limit_per_db: { column: 'automatedBackupLimitPerDb', kind: 'count' },
  cpu_allowed_profiles: { column: 'cpuAllowedProfiles', kind: 'count' },
  discount_percent: { column: 'discountPercent', kind: 'percent' },
  horizontal_autoscaling: { column: 'horizontalAutoscaling', kind: 'flag' },
  vertical_autoscaling: { column: 'verticalAutoscaling', kind: 'flag' },
  compliance_dashboard_access: { column: 'complianceDashboardAccess', kind: 'flag' },
} as const satisfies Record<string, { column: keyof PlanRow; kind: string }>;
type FieldName = keyof typeof FIELDS;

function isField(name: string): name is FieldName {
  return Object.hasOwn(FIELDS, name);
}

/** One FIELD=VALUE, checked: the field one of FIELDS, the value of its kind. */
function parseAssignment(text: string): [keyof PlanRow, number | boolean | null] {
  const [name = '', value = '', extra] = text.slice(0, 200).split('=');
  if (extra !== undefined || !isField(name)) {
    throw new PlansUsageError(
      `Unknown field ${name.slice(0, 60)}; the fields are ${Object.keys(FIELDS).join(', ')}`,
    );
  }
  const { column, kind } = FIELDS[name];
  if (kind === 'flag') {
    if (value === 'true' || value === 'false') return [column, value === 'true'];
    throw new PlansUsageError(`${name} must be true or false, got "${value}"`);
  }
  if (kind === 'countOrNone' && value === 'none') return [column, null];
  const number = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(number) || (kind === 'percent' && number > 100)) {
    const range = kind === 'percent' ? 'a whole number from 0 to 100' : 'a whole number of 0 or more';
    throw new PlansUsageError(
      `${name} must be ${range}${kind === 'countOrNone' ? ' or none' : ''}, got "${value}"`,
    );
  }
  return [column, number];
}

function describe(plan: PlanRow): string {
  const figures = Object.entries(FIELDS).map(([name, { column }]) => {
    const value = plan[column];
    return `${name}=${value === null ? 'none' : String(value)}`;
  });
  return `${plan.name} (id ${plan.id}): ${figures.join(' ')}`;
}

function planName(value: string | undefined): PlanName {
  const name = (value ?? '').trim().toLowerCase();
  if (!isPlanName(name)) {
    throw new PlansUsageError(
      `Unknown plan ${name.slice(0, 60) || '(none given)'}; the plans are ${PLAN_NAMES.join(', ')}`,
    );
  }
  return name;
}

async function organizationOf(db: Db, id: string | undefined) {
  const [organization] =
    id && isUuid(id) ? await db.select().from(organizations).where(eq(organizations.id, id)) : [];
  if (!organization) throw new PlansUsageError(`No organization with the id ${(id ?? '').slice(0, 60)}`);
  return organization;
}

async function planNamed(db: Db, name: PlanName): Promise<PlanRow> {
  const [plan] = await db.select().from(plans).where(eq(plans.name, name));
  if (!plan) throw new PlansUsageError(`The plan ${name} is missing from the database`);
  return plan;
}

/**
 * `npm run admin -- plans …`: the operator's plan commands. Plans change only here, never through the
 * API; an organization's plan changes here or by its Account Owner among its available plans.
 */
export async function plansCommand(db: Db, argv: readonly string[]): Promise<string> {
  const [sub, ...args] = argv;
  if (sub === 'list' && args.length === 0) {
    const rows = await db.select().from(plans);
    rows.sort((a, b) => PLAN_NAMES.indexOf(a.name as PlanName) - PLAN_NAMES.indexOf(b.name as PlanName));
    return rows.map(describe).join('\n');
  }
  if (sub === 'set' && args.length >= 2) {
    const plan = await planNamed(db, planName(args[0]));
    const changes = Object.fromEntries(args.slice(1).map(parseAssignment));
    const [updated] = await db
      .update(plans)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(plans.id, plan.id))
      .returning();
    if (!updated) throw new PlansUsageError(`The plan ${plan.name} is gone`);
    return `Changed ${describe(updated)}`;
  }
  if (sub === 'assign' && args.length === 2) {
    const organization = await organizationOf(db, args[0]);
    const plan = await planNamed(db, planName(args[1]));
    await db
      .insert(activePlans)
      .values({
        organizationId: organization.id,
        planId: plan.id,
        availablePlans: [...DEFAULT_AVAILABLE_PLANS],
      })
      .onConflictDoUpdate({
        target: activePlans.organizationId,
        set: { planId: plan.id, updatedAt: new Date() },
      });
    return `${organization.name} (${organization.id}) is now on the ${plan.name} plan. Nothing it has is removed; what is over the plan's limits stays, and new creations over them are refused.`;
  }
  if (sub === 'available' && args.length === 2) {
    const organization = await organizationOf(db, args[0]);
    const names = [...new Set((args[1] ?? '').slice(0, 400).split(',').map(planName))];
    const [updated] = await db
      .update(activePlans)
      .set({ availablePlans: names, updatedAt: new Date() })
      .where(eq(activePlans.organizationId, organization.id))
      .returning();
    if (!updated) {
      throw new PlansUsageError(
        `${organization.name} has no plan yet (the legacy plan): give it one first with plans assign ${organization.id} PLAN`,
      );
    }
    return `${organization.name}'s owners may now choose: ${names.join(', ')}.`;
  }
  throw new PlansUsageError(`Usage:\n${PLANS_USAGE}`);
}
