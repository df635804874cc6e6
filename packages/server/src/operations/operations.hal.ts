import type { OperationResource } from '@berth/core';
import { asc, inArray } from 'drizzle-orm';
import type { FamilyUrls } from '../config.ts';
import type { Db } from '../db/client.ts';
import { codeScanResults, type operations } from '../db/schema.ts';
import { iso, links } from '../http/hal.ts';

export type OperationRow = typeof operations.$inferSelect;

/** Canonical plural path of each resource type an operation can act on (contract §1.6). */
export const RESOURCE_PATHS: Record<string, string> = {
  app: 'apps',
  database: 'databases',
  vhost: 'vhosts',
  service: 'services',
  backup: 'backups',
  release: 'releases',
  container: 'containers',
  vpc_peer: 'vpc_peers',
  vpn_tunnel: 'vpn_tunnels',
  log_drain: 'log_drains',
  metric_drain: 'metric_drains',
  ephemeral_session: 'ephemeral_sessions',
  account: 'accounts',
};

export interface OperationHalOptions {
  /** Only callers with read scope on the environment see configuration values (default: hidden). */
  showEnv?: boolean;
  /** The code scan result a scan_code operation produced (contract §4.3), looked up by the caller. */
  codeScanResultId?: number | null;
  /** A failed operation's reason (issue 41), where a list looked it up; absent elsewhere. */
  failureReason?: string | null;
}

export function toOperationHal(
  op: OperationRow,
  urls: FamilyUrls,
  options: OperationHalOptions = {},
): OperationResource {
  const resourcePath = RESOURCE_PATHS[op.resourceType] ?? `${op.resourceType}s`;
  return {
    id: String(op.id),
    _type: 'operation' as const,
    type: op.type,
    status: op.status,
    git_ref: op.gitRef,
    docker_ref: op.dockerRef,
    container_count: op.containerCount,
    container_size: op.containerSize,
    disk_size: op.diskSize,
    instance_profile: op.instanceProfile,
    provisioned_iops: op.provisionedIops,
    ebs_volume_type: '',
    destination_region: '',
    encrypted_env_json_new: '',
    encrypted_stack_settings: '',
    // Configuration values only for callers who may read them (so a re-run cannot send blanks).
    env: options.showEnv ? op.env : null,
    note: op.note,
    user_name: op.userName,
    user_email: op.userEmail,
    automated: op.automated,
    cancelled: op.cancelled,
    aborted: op.aborted,
    immediate: op.immediate,
    // Berth additions the activity list shows without another lookup.
    resource_type: op.resourceType,
    resource_id: String(op.resourceId),
    resource_handle: op.resourceHandle,
    // Berth additions: what a scale changed from, recorded when it ran (spec 2 §4 Last Scale "from").
    previous_container_count: op.previousContainerCount,
    previous_container_size: op.previousContainerSize,
    previous_instance_profile: op.previousInstanceProfile,
    ...(op.status === 'failed' && options.failureReason !== undefined
      ? { failure_reason: options.failureReason }
      : {}),
    created_at: iso(op.createdAt),
    updated_at: iso(op.updatedAt),
    _links: links({
      self: `${urls.api}/operations/${op.id}`,
      resource: `${urls.api}/${resourcePath}/${op.resourceId}`,
      account: op.environmentId ? `${urls.api}/accounts/${op.environmentId}` : null,
      logs: `${urls.api}/operations/${op.id}/logs`,
      user: op.userId ? `${urls.auth}/users/${op.userId}` : null,
      code_scan_result:
        op.type === 'scan_code' && options.codeScanResultId
          ? `${urls.api}/code_scan_results/${options.codeScanResultId}`
          : null,
      // Set when a restore or a replica created its database (at enqueue), so its page can link it.
      new_database:
        typeof op.parameters?.newDatabaseId === 'number'
          ? `${urls.api}/databases/${op.parameters.newDatabaseId}`
          : null,
    }),
  };
}

/**
 * The code scan result of each scan_code operation among `ops` that produced one, in one query
 * (none when there is no scan among them): operation id → result id.
 */
export async function codeScanResultIds(db: Db, ops: readonly OperationRow[]): Promise<Map<number, number>> {
  const scanIds = [...new Set(ops.filter((op) => op.type === 'scan_code').map((op) => op.id))];
  if (scanIds.length === 0) return new Map();
  const rows = await db
    .select({ id: codeScanResults.id, operationId: codeScanResults.operationId })
    .from(codeScanResults)
    .where(inArray(codeScanResults.operationId, scanIds))
    .orderBy(asc(codeScanResults.id));
  // Should a scan have produced more than one row, link the newest.
  return new Map(rows.map((row) => [row.operationId, row.id]));
}
