import { LOG_DRAIN_TYPE_LABELS, type LogDrainResource, type LogDrainType } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 log_drain as the console reads it. */
export interface LogDrain {
  id: string;
  handle: string;
  /** What it was created as (Datadog, InsightOps, …): `_embedded.backend.channel`. */
  serviceType: string;
  drainType: string;
  destination: string;
  sources: string[];
  status: string;
  linesSent: number;
  linesDropped: number;
  lastError: string;
  lastShippedAt: string | null;
  environmentId: string | null;
  createdAt: string;
}

export function fromLogDrainResource(drain: LogDrainResource): LogDrain {
  const sources = [
    drain.drain_apps && 'Apps',
    drain.drain_databases && 'Databases',
    drain.drain_ephemeral_sessions && 'SSH sessions',
    drain.drain_proxies && 'Endpoints',
  ].filter((source): source is string => typeof source === 'string');
  return {
    id: idOf(drain),
    handle: drain.handle,
    serviceType: drain._embedded.backend.channel,
    drainType: drain.drain_type,
    // The URL comes masked (only where it goes); syslog names its host and port.
    destination: drain.url || (drain.drain_host ? `${drain.drain_host}:${drain.drain_port}` : ''),
    sources,
    status: drain.status,
    linesSent: drain.lines_sent,
    linesDropped: drain.lines_dropped,
    lastError: drain.last_error,
    lastShippedAt: drain.last_shipped_at,
    environmentId: linkId(drain, 'account'),
    createdAt: drain.created_at,
  };
}

/** What the drain is, as its creator chose it. */
export function logDrainTypeLabel(drain: Pick<LogDrain, 'serviceType' | 'drainType'>): string {
  return (
    LOG_DRAIN_TYPE_LABELS[drain.serviceType as LogDrainType] ??
    LOG_DRAIN_TYPE_LABELS[drain.drainType as LogDrainType] ??
    drain.drainType
  );
}

/** spec 2 §4: pending, provisioning and deprovisioning read Pending. */
export function logDrainStatusLabel(status: string): string {
  if (status === 'provisioned') return 'Provisioned';
  if (status === 'provision_failed') return 'Provision Failed';
  if (status === 'deprovision_failed') return 'Deprovision Failed';
  if (status === 'pending' || status === 'provisioning' || status === 'deprovisioning') return 'Pending';
  return 'Unknown';
}
