import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.3 stack, plus Berth's `runtime` (which runtime runs it, so the console can label a
 * simulated one). A shared stack has no `organization` link.
 */
export const stackResource = z
  .strictObject({
    id: halId,
    _type: z.literal('stack'),
    name: z.string(),
    region: z.string(),
    runtime: z.string(),
    default: z.boolean(),
    public: z.boolean(),
    self_hosted: z.boolean(),
    aws_account_id: z.string(),
    internal_domain: z.string(),
    default_domain: z.string(),
    outbound_ip_addresses: z.array(z.string()),
    memory_limits: z.boolean(),
    cpu_limits: z.boolean(),
    intrusion_detection: z.boolean(),
    expose_intrusion_detection_reports: z.boolean(),
    allow_c_instance_profile: z.boolean(),
    allow_m_instance_profile: z.boolean(),
    allow_r_instance_profile: z.boolean(),
    allow_t_instance_profile: z.boolean(),
    allow_granular_container_sizes: z.boolean(),
    vertical_autoscaling: z.boolean(),
    horizontal_autoscaling: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'accounts'], ['organization']),
  })
  .meta({ id: 'Stack' });
export type StackResource = z.infer<typeof stackResource>;

export const stackCollection = halCollection('stacks', stackResource).meta({ id: 'StackCollection' });
export type StackCollection = z.infer<typeof stackCollection>;
