import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.3: an operation, plus Berth's `resource_type`, `resource_id` and `resource_handle` (so the
 * activity list names its resource without another lookup) and a scale's `previous_*` size. `env` is null unless the caller may read
 * configuration values.
 */
export const operationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('operation'),
    type: z.string(),
    status: z.string(),
    git_ref: z.string().nullable(),
    docker_ref: z.string().nullable(),
    container_count: z.number().int().nullable(),
    container_size: z.number().int().nullable(),
    disk_size: z.number().int().nullable(),
    instance_profile: z.string().nullable(),
    provisioned_iops: z.number().int(),
    ebs_volume_type: z.string(),
    destination_region: z.string(),
    encrypted_env_json_new: z.string(),
    encrypted_stack_settings: z.string(),
    env: z.record(z.string(), z.string().nullable()).nullable(),
    note: z.string(),
    user_name: z.string(),
    user_email: z.string(),
    automated: z.boolean(),
    cancelled: z.boolean(),
    aborted: z.boolean(),
    immediate: z.boolean(),
    resource_type: z.string(),
    resource_id: halId,
    resource_handle: z.string(),
    // Berth additions: the service's size before a scale changed it, recorded when the scale runs
    // (null before then, and for every other type), so the Last Scale banner can say "from … to …"
    // (spec 2 §4).
    previous_container_count: z.number().int().nullable(),
    previous_container_size: z.number().int().nullable(),
    previous_instance_profile: z.string().nullable(),
    // Berth addition (issue 41): a failed operation's reason (failureReason: its log's first error line,
    // else its note), in operation lists only, so a list of resources says why without reading each log.
    failure_reason: z.string().nullable().optional(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    // Berth addition `new_database`: the database a restore or a replica provisions (issue 41: its
    // operation page links it).
    _links: halLinks(['self', 'resource', 'logs'], ['account', 'user', 'code_scan_result', 'new_database']),
  })
  .meta({ id: 'Operation' });
export type OperationResource = z.infer<typeof operationResource>;

/**
 * Operation lists count up to a cap (issue 19): past it `total_count` is an estimate (at least one more
 * than the rows up to this page while more follow) and `total_count_estimated` says so.
 */
export const operationCollection = halCollection('operations', operationResource)
  .extend({ total_count_estimated: z.boolean().optional() })
  .meta({ id: 'OperationCollection' });
export type OperationCollection = z.infer<typeof operationCollection>;
