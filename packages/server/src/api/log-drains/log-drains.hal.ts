import type { LogDrainResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { logDrains } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type LogDrainRow = typeof logDrains.$inferSelect;

/** A secret as the console may show it: its last four characters, the rest hidden. */
function masked(secret: string): string {
  return secret.length > 8 ? `••••${secret.slice(-4)}` : secret ? '••••' : '';
}

/**
 * A destination URL without what often carries a key (user and password, path, query): only where it
 * goes. The full URL never leaves the server (issue 13: secrets are never returned in full).
 */
function maskedUrl(url: string): string {
  if (!url || !URL.canParse(url)) return '';
  const parsed = new URL(url);
  const hidden = parsed.username || parsed.password || parsed.search || parsed.pathname.length > 1;
  return `${parsed.protocol}//${parsed.host}${hidden ? '/••••' : ''}`;
}

/** Contract §4.3 log_drain, with the shipper's progress (Berth additions). */
export function toLogDrainHal(
  drain: LogDrainRow,
  urls: FamilyUrls,
  secrets: { url: string; loggingToken: string },
): LogDrainResource {
  const api = urls.api;
  return {
    id: String(drain.id),
    _type: 'log_drain' as const,
    handle: drain.handle,
    drain_type: drain.drainType,
    drain_host: drain.drainHost,
    drain_port: drain.drainPort === null ? '' : String(drain.drainPort),
    url: maskedUrl(secrets.url),
    logging_token: masked(secrets.loggingToken),
    drain_username: '',
    drain_password: '',
    drain_apps: drain.drainApps,
    drain_databases: drain.drainDatabases,
    drain_ephemeral_sessions: drain.drainEphemeralSessions,
    drain_proxies: drain.drainProxies,
    status: drain.status,
    lines_sent: drain.linesSent,
    lines_dropped: drain.linesDropped,
    last_error: drain.lastError,
    last_shipped_at: drain.lastShippedAt ? iso(drain.lastShippedAt) : null,
    created_at: iso(drain.createdAt),
    updated_at: iso(drain.updatedAt),
    _embedded: { backend: { channel: drain.serviceType } },
    _links: links({
      self: `${api}/log_drains/${drain.id}`,
      account: `${api}/accounts/${drain.environmentId}`,
      operations: `${api}/log_drains/${drain.id}/operations`,
      ...(drain.databaseId ? { database: `${api}/databases/${drain.databaseId}` } : {}),
    }),
  };
}
