import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { lastUrlSegment } from '../identity/references.ts';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH } from '../text/limits.ts';

/** Contract §4.2: every figure of a plan (a plan adds its name, an active plan its organization's). */
const planFigures = {
  cost_cents: z.number().int(),
  container_memory_limit: z.number().int(),
  included_container_mb: z.number().int(),
  disk_limit: z.number().int(),
  included_disk_gb: z.number().int(),
  vhost_limit: z.number().int(),
  included_vhosts: z.number().int(),
  ephemeral_session_limit: z.number().int(),
  environment_limit: z.number().int().nullable(),
  automated_backup_limit_per_db: z.number().int(),
  manual_backup_limit_per_db: z.number().int(),
  compliance_dashboard_access: z.boolean(),
  horizontal_autoscaling: z.boolean(),
  vertical_autoscaling: z.boolean(),
  cpu_allowed_profiles: z.number().int(),
  // Berth addition: percent off usage above what the plan includes (invoices apply it).
  discount_percent: z.number().int(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
};

export const planResource = z
  .strictObject({
    id: halId,
    _type: z.literal('plan'),
    name: z.string(),
    ...planFigures,
    _links: halLinks(['self']),
  })
  .meta({ id: 'Plan' });
export type PlanResource = z.infer<typeof planResource>;
export const planCollection = halCollection('plans', planResource).meta({ id: 'PlanCollection' });

/** Contract §4.2: the plan in force for an organization, and the plans it may switch to. */
export const activePlanResource = z
  .strictObject({
    id: halId,
    _type: z.literal('active_plan'),
    ...planFigures,
    available_plans: z.array(z.string()),
    organization_id: z.string(),
    plan_id: z.string(),
    _links: halLinks(['self', 'organization', 'plan']),
  })
  .meta({ id: 'ActivePlan' });
export type ActivePlanResource = z.infer<typeof activePlanResource>;
export const activePlanCollection = halCollection('active_plans', activePlanResource).meta({
  id: 'ActivePlanCollection',
});

/**
 * `PUT /active_plans/:id`: the plan to move to, by id. Contract §1.9: a bare id, or the plan's URL (its
 * last segment is the id); a number is taken as the id it writes.
 */
export const changeActivePlanBody = z.looseObject({
  plan_id: z
    .union(
      [
        boundedString(MAX_LENGTH.reference, { label: 'plan_id' }).trim().transform(lastUrlSegment),
        z.number().int().transform(String),
      ],
      { error: 'plan_id is required' },
    )
    .pipe(z.string().min(1, 'plan_id is required')),
});
export type ChangeActivePlanBody = z.infer<typeof changeActivePlanBody>;
