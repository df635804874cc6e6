import { z } from 'zod';
import { halCollection, halId } from '../hal/hal.ts';

/** The resources a cost row can price. */
export const COST_RESOURCE_TYPES = ['Stack', 'Account', 'App', 'Database', 'Service'] as const;

/** Contract §4.3 cost: the id is the costed resource's own id; USD per month, unrounded. No links. */
export const costResource = z
  .strictObject({
    id: halId,
    _type: z.literal('cost'),
    resource_type: z.enum(COST_RESOURCE_TYPES),
    est_cost: z.number(),
    _links: z.strictObject({}),
  })
  .meta({ id: 'Cost' });
export type CostResource = z.infer<typeof costResource>;

export const costCollection = halCollection('costs', costResource).meta({ id: 'CostCollection' });
export type CostCollection = z.infer<typeof costCollection>;

/** Contract §4.3 cost rates: plain JSON, no `_type` or links. */
export const costRatesBody = z
  .strictObject({
    m_class_gb_per_hour: z.number(),
    c_class_gb_per_hour: z.number(),
    r_class_gb_per_hour: z.number(),
    vhost_cost_per_hour: z.number(),
    shared_vhost_cost_per_hour: z.number(),
    disk_cost_gb_per_month: z.number(),
    disk_iops_cost_per_month: z.number(),
    backup_cost_gb_per_month: z.number(),
    stack_cost_per_month: z.number(),
    vpn_tunnel_cost_per_month: z.number(),
    hids_cost_per_month: z.number(),
  })
  .meta({ id: 'CostRates' });
export type CostRatesBody = z.infer<typeof costRatesBody>;
