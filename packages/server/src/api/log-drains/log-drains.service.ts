import {
  createLogDrainSchema,
  INSIGHTOPS_HOST,
  INSIGHTOPS_PORT,
  LOG_DRAIN_SOURCE_DEFAULTS,
  logDrainMessages,
  parsePort,
  storedLogDrainType,
} from '@berth/core';
import { and, eq, inArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { databases, logDrains } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { createAccess } from '../access/access.ts';
import { deleteUnlessShipping } from '../drains/drain-records.ts';
import type { LogDrainRow } from './log-drains.hal.ts';

/** A drain with its secrets opened, for the answer (which masks them) and the shipper. */
export interface LogDrainView {
  drain: LogDrainRow;
  url: string;
  loggingToken: string;
}

export const duplicateLogDrain = (handle: string) =>
  `A log drain named ${handle} already exists in this environment`;

/**
 * Log drains (contract §5.10): created per environment as a record, then provisioned. What the console
 * offers is stored as one of four kinds; the URL and token are sealed under the server's key.
 */
export function createLogDrainsService(deps: { db: Db; box: SecretBox }) {
  const { db, box } = deps;
  const access = createAccess(db);

  const open = (sealed: string | null) => (sealed ? box.open(sealed) : '');
  const view = (drain: LogDrainRow): LogDrainView => ({
    drain,
    url: open(drain.urlSealed),
    loggingToken: open(drain.loggingTokenSealed),
  });

  async function page(where: ReturnType<typeof eq>, paging: Paging | null): Promise<Page<LogDrainView>> {
    const { items, paging: window } = await selectPage(db, logDrains, {
      where,
      orderBy: [logDrains.id],
      paging,
    });
    return { items: items.map(view), paging: window };
  }

  return {
    view,

    async list(ref: CallerRef, paging: Paging | null) {
      const ids = await access.readableEnvironmentIds(await access.caller(ref), 'log_drain.read');
      return page(inArray(logDrains.environmentId, ids), paging);
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging | null) {
      const environment = await access.environment(await access.caller(ref), environmentId, 'log_drain.read');
      return page(eq(logDrains.environmentId, environment.id), paging);
    },

    async get(ref: CallerRef, id: number | null): Promise<LogDrainView> {
      const [found] = id === null ? [] : await db.select().from(logDrains).where(eq(logDrains.id, id));
      const { row } = await access.resource(await access.caller(ref), found, 'log_drain.read', 'Log drain');
      return view(row);
    },

    /** The body is read only once the caller may create drains in the environment (404 or 403 first). */
    async create(ref: CallerRef, environmentId: number | null, body: unknown): Promise<LogDrainView> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'log_drain.create');
      const input = parseBody(createLogDrainSchema, body);
      const serviceType = input.drain_type;
      const drainType = storedLogDrainType(serviceType);
      const url = (input.url ?? '').trim();
      let host = (input.drain_host ?? '').trim().toLowerCase();
      let port = parsePort(input.drain_port) ?? null;
      if (serviceType === 'insightops') {
        host = INSIGHTOPS_HOST;
        port = INSIGHTOPS_PORT;
      }
      if (drainType === 'https_post') {
        // Where it goes is no secret (the provision checks it answers); the URL itself is sealed.
        const parsed = new URL(url);
        host = parsed.hostname;
        port = parsed.port ? Number(parsed.port) : 443;
      }
      // Syslog over TLS: 6514 unless said otherwise (SolarWinds takes only a host and a token).
      if (drainType === 'syslog_tls_tcp' && port === null) port = 6514;
      let databaseId: number | null = null;
      if (drainType === 'elasticsearch_database') {
        const id = parseNumericId(String(input.database_id ?? ''));
        const [database] =
          id === null
            ? []
            : await db
                .select()
                .from(databases)
                .where(and(eq(databases.id, id), eq(databases.environmentId, environment.id)));
        if (database?.type !== 'elasticsearch')
          throw unprocessable(logDrainMessages.database('Elasticsearch'));
        databaseId = database.id;
      }
      const token = (input.logging_token ?? '').trim();
      try {
        const [created] = await db
          .insert(logDrains)
          .values({
            environmentId: environment.id,
            handle: input.handle,
            serviceType,
            drainType,
            drainHost: host,
            drainPort: port,
            urlSealed: url ? box.seal(url) : null,
            loggingTokenSealed: token ? box.seal(token) : null,
            databaseId,
            drainApps: input.drain_apps ?? LOG_DRAIN_SOURCE_DEFAULTS.drain_apps,
            drainDatabases: input.drain_databases ?? LOG_DRAIN_SOURCE_DEFAULTS.drain_databases,
            drainEphemeralSessions:
              input.drain_ephemeral_sessions ?? LOG_DRAIN_SOURCE_DEFAULTS.drain_ephemeral_sessions,
            drainProxies: input.drain_proxies ?? LOG_DRAIN_SOURCE_DEFAULTS.drain_proxies,
          })
          .returning();
        if (!created) throw new Error('Log drain insert returned nothing');
        return view(created);
      } catch (error) {
        if (isUniqueViolation(error)) throw unprocessable(duplicateLogDrain(input.handle));
        throw error;
      }
    },

    /** Deleting removes the record; one still shipping is deprovisioned first. */
    async remove(ref: CallerRef, id: number | null): Promise<void> {
      const [found] = id === null ? [] : await db.select().from(logDrains).where(eq(logDrains.id, id));
      const { row } = await access.resource(await access.caller(ref), found, 'log_drain.delete', 'Log drain');
      await deleteUnlessShipping(db, logDrains, row.id, logDrainMessages.deprovisionFirst);
    },
  };
}
export type LogDrainsService = ReturnType<typeof createLogDrainsService>;
