import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { databaseCredentials, environments, logDrains, operationLogs, operations } from '../db/schema.ts';
import { endpointHandle } from '../operations/handlers/vhost.ts';
import { periodic } from '../operations/periodic.ts';
import type { LogsContainer, LogsEndpoint, Runtime } from '../runtimes/runtime.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { DRAIN_CONCURRENCY, eachLimited, holdDrain, leaseFor, retryAfter } from './drain-lease.ts';
import { environmentContainers, environmentEndpoints } from './environment-containers.ts';
import {
  DeliveryError,
  type DeliveryTls,
  type DrainLine,
  deliverElasticsearch,
  deliverHttps,
  deliverSyslog,
} from './log-delivery.ts';

/** How often the shipper collects and sends. */
export const LOG_SHIPPING_INTERVAL_MS = 10_000;
/** Lines one drain holds while its destination is down; past it the oldest are dropped and counted. */
export const LOG_DRAIN_BUFFER_LINES = 10_000;
/** Lines one pass collects per source at most (the rest waits for the next pass). */
const COLLECT_LINES = 5000;
/** How long one pass may spend sending one drain's lines. */
const PASS_BUDGET_MS = 30_000;
/** The longest line shipped (longer ones are cut, and say so). */
const LINE_LIMIT = 16 * 1024;
const clip = (text: string) => (text.length > LINE_LIMIT ? `${text.slice(0, LINE_LIMIT)}… [cut]` : text);
/** Lines one request carries. */
export const LOG_DRAIN_BATCH_LINES = 500;

type DrainRow = typeof logDrains.$inferSelect;

/** What one drain holds in this process: lines collected but not delivered, and how far it collected. */
interface DrainState {
  buffer: DrainLine[];
  collectedUntil: Date;
}

/**
 * Ships each provisioned log drain's lines to its destination (issue 13): every pass collects what its
 * sources wrote since the last pass (app and database containers' output from their runtime, and the
 * log lines of the environment's operations), keeps it in a bounded buffer, and sends it in batches in
 * the destination's wire format. A failed delivery keeps the lines and is tried again with a growing
 * wait; the drain records it. The row keeps the time everything before has been delivered, so after a
 * restart the shipper collects again from there: lines are delivered at least once.
 */
export function createLogShipper(deps: {
  db: Db;
  runtimes: Record<string, Runtime>;
  /** Opens the drains' sealed URLs and tokens. */
  box: SecretBox;
  /** Opens databases' sealed connection URLs (Elasticsearch drains). */
  databaseSecrets: SecretBox;
  tls?: DeliveryTls;
  bufferLines?: number;
  onError?: (error: unknown) => void;
}) {
  const { db } = deps;
  const tls = deps.tls ?? {};
  const bufferLines = deps.bufferLines ?? LOG_DRAIN_BUFFER_LINES;
  const states = new Map<number, DrainState>();
  const shipperId = `shipper-${process.pid}-${randomBytes(3).toString('hex')}`;
  let leaseMs = leaseFor(LOG_SHIPPING_INTERVAL_MS);

  async function containerLines(
    environment: string,
    environmentId: number,
    layer: 'app' | 'database',
    since: Date,
    until: Date,
  ): Promise<DrainLine[]> {
    const rows = await environmentContainers(db, environmentId, layer);
    type Entry = { logs: LogsContainer[]; names: Map<string, (typeof rows)[number]> };
    const byRuntime = new Map<string, Entry>();
    for (const row of rows) {
      const entry: Entry = byRuntime.get(row.runtime) ?? { logs: [], names: new Map() };
      entry.logs.push({
        id: row.container.id,
        dockerName: row.container.dockerName,
        layer: row.container.layer,
        processType: row.processType,
        startedAt: row.container.createdAt,
      });
      entry.names.set(row.container.dockerName, row);
      byRuntime.set(row.runtime, entry);
    }
    const lines: DrainLine[] = [];
    for (const [name, entry] of byRuntime) {
      const runtime = deps.runtimes[name];
      if (!runtime) continue;
      for (const line of await runtime.containerLogs(entry.logs, COLLECT_LINES, since)) {
        if (line.time > until) continue;
        const row = entry.names.get(line.container);
        lines.push({
          time: line.time,
          source: layer,
          environment,
          resource: row?.resource ?? '',
          service: row?.processType ?? '',
          origin: line.container,
          stream: line.stream,
          message: clip(line.line),
        });
      }
    }
    return lines;
  }

  /** The requests the environment's endpoints answered, from their runtime (drain_proxies). */
  async function proxyLines(environment: string, environmentId: number, since: Date, until: Date) {
    const rows = await environmentEndpoints(db, environmentId);
    type Entry = { endpoints: LogsEndpoint[]; handles: Map<string, string> };
    const byRuntime = new Map<string, Entry>();
    for (const row of rows) {
      const entry: Entry = byRuntime.get(row.runtime) ?? { endpoints: [], handles: new Map() };
      const hostname = endpointHandle(row.vhost).toLowerCase();
      entry.endpoints.push({ id: row.vhost.id, hostname, createdAt: row.vhost.createdAt });
      entry.handles.set(hostname, row.resource);
      byRuntime.set(row.runtime, entry);
    }
    const lines: DrainLine[] = [];
    for (const [name, entry] of byRuntime) {
      const runtime = deps.runtimes[name];
      if (!runtime) continue;
      for (const line of await runtime.endpointLogs(entry.endpoints, COLLECT_LINES, since)) {
        if (line.time > until) continue;
        lines.push({
          time: line.time,
          source: 'proxy',
          environment,
          resource: line.hostname,
          service: entry.handles.get(line.hostname) ?? '',
          origin: 'endpoint',
          stream: 'stdout',
          message: clip(line.line),
        });
      }
    }
    return lines;
  }

  /** The log lines the environment's operations wrote (deploys' builds among them). */
  async function operationLines(
    environment: string,
    environmentId: number,
    since: Date,
    until: Date,
    resourceTypes: string[],
  ) {
    const rows = await db
      .select({ line: operationLogs.line, time: operationLogs.createdAt, operation: operations })
      .from(operationLogs)
      .innerJoin(operations, eq(operationLogs.operationId, operations.id))
      .where(
        and(
          eq(operations.environmentId, environmentId),
          inArray(operations.resourceType, resourceTypes),
          gt(operationLogs.createdAt, since),
          lte(operationLogs.createdAt, until),
        ),
      )
      .orderBy(asc(operationLogs.id))
      .limit(COLLECT_LINES);
    return rows.map(
      (row): DrainLine => ({
        time: row.time,
        source: 'operation',
        environment,
        resource: row.operation.resourceHandle,
        service: row.operation.type,
        origin: `operation-${row.operation.id}`,
        stream: /\bERROR\b/.test(row.line.slice(0, 40)) ? 'stderr' : 'stdout',
        message: clip(row.line),
      }),
    );
  }

  /** The lines of a drain's sources in (since, until]; a pass that fills up ends early (`until` says where). */
  async function collect(drain: DrainRow, environment: string, since: Date, until: Date) {
    const lines: DrainLine[] = [];
    let end = until;
    // Operations' lines go with their resource's source: apps (and their services and endpoints), databases.
    const resourceTypes = [
      ...(drain.drainApps ? ['app', 'service', 'vhost'] : []),
      ...(drain.drainDatabases ? ['database', 'backup'] : []),
    ];
    if (resourceTypes.length) {
      const operationsLines = await operationLines(
        environment,
        drain.environmentId,
        since,
        until,
        resourceTypes,
      );
      // More than one pass takes: this one ends at the last line it read, the next goes on from there.
      if (operationsLines.length === COLLECT_LINES) end = operationsLines.at(-1)?.time ?? until;
      lines.push(...operationsLines);
    }
    if (drain.drainApps)
      lines.push(...(await containerLines(environment, drain.environmentId, 'app', since, end)));
    if (drain.drainDatabases)
      lines.push(...(await containerLines(environment, drain.environmentId, 'database', since, end)));
    if (drain.drainProxies) lines.push(...(await proxyLines(environment, drain.environmentId, since, end)));
    return {
      lines: lines.filter((line) => line.time <= end).sort((a, b) => a.time.getTime() - b.time.getTime()),
      until: end,
    };
  }

  async function deliver(drain: DrainRow, batch: DrainLine[]) {
    const token = drain.loggingTokenSealed ? deps.box.open(drain.loggingTokenSealed) : '';
    switch (drain.drainType) {
      case 'https_post':
        return deliverHttps(drain.urlSealed ? deps.box.open(drain.urlSealed) : '', batch, tls);
      case 'syslog_tls_tcp':
      case 'papertrail':
        return deliverSyslog(drain.drainHost, drain.drainPort ?? 6514, token, batch, tls);
      case 'elasticsearch_database': {
        const url = await elasticsearchUrl(drain);
        return deliverElasticsearch(url, batch, tls);
      }
      default:
        throw new DeliveryError(`Log drains of type ${drain.drainType} cannot ship`);
    }
  }

  /** The Elasticsearch database's connection URL (its credential, sealed with the databases' key). */
  async function elasticsearchUrl(drain: DrainRow): Promise<string> {
    const [credential] = drain.databaseId
      ? await db
          .select()
          .from(databaseCredentials)
          .where(eq(databaseCredentials.databaseId, drain.databaseId))
          .limit(1)
      : [];
    if (!credential) throw new DeliveryError('The Elasticsearch database of this drain has no credentials');
    return deps.databaseSecrets.open(credential.connectionUrlSealed);
  }

  /** One pass over one drain: collect, buffer (bounded), deliver what it may, record how it went. */
  async function shipDrain(drain: DrainRow, environment: string, now: Date) {
    const state = states.get(drain.id) ?? {
      buffer: [],
      // After a restart (or on another process), from what was delivered last.
      collectedUntil: drain.shippedUntil ?? drain.updatedAt,
    };
    states.set(drain.id, state);
    // Lines are collected up to the clock's present; `now` decides only whether a retry is due.
    const present = new Date();
    if (present > state.collectedUntil) {
      const collected = await collect(drain, environment, state.collectedUntil, present);
      state.buffer.push(...collected.lines);
      state.collectedUntil = collected.until;
    }
    let dropped = 0;
    if (state.buffer.length > bufferLines) {
      dropped = state.buffer.length - bufferLines;
      state.buffer.splice(0, dropped);
    }
    let sent = 0;
    let error = '';
    const budgetEnds = Date.now() + PASS_BUDGET_MS;
    if (!drain.retryAt || drain.retryAt <= now) {
      // Within the pass's budget: what is left goes on the next pass.
      while (state.buffer.length && Date.now() < budgetEnds) {
        const batch = state.buffer.slice(0, LOG_DRAIN_BATCH_LINES);
        try {
          await deliver(drain, batch);
        } catch (problem) {
          error =
            problem instanceof DeliveryError
              ? problem.message
              : `Delivery failed: ${(problem as Error).message}`;
          if (problem instanceof DeliveryError && problem.permanent) {
            // Refused for what it is (too large, malformed for the destination): sending it again would
            // block the drain for good. It is dropped, and counted.
            state.buffer.splice(0, batch.length);
            dropped += batch.length;
          }
          break;
        }
        state.buffer.splice(0, batch.length);
        sent += batch.length;
      }
    }
    const failures = error ? drain.failures + 1 : drain.retryAt && drain.retryAt > now ? drain.failures : 0;
    const oldest = state.buffer[0];
    await db
      .update(logDrains)
      .set({
        // Everything before the oldest line still held has been delivered.
        shippedUntil: oldest ? new Date(oldest.time.getTime() - 1) : state.collectedUntil,
        // Counters add to what the row holds now, and only while this process holds the drain.
        linesSent: sql`${logDrains.linesSent} + ${sent}`,
        linesDropped: sql`${logDrains.linesDropped} + ${dropped}`,
        ...(sent ? { lastShippedAt: now } : {}),
        ...(error
          ? {
              lastError: error.slice(0, 500),
              failures,
              retryAt: retryAfter(now, failures),
            }
          : sent || !state.buffer.length
            ? { lastError: '', failures: 0, retryAt: null }
            : {}),
      })
      .where(and(eq(logDrains.id, drain.id), eq(logDrains.shipperId, shipperId)));
  }

  /** One pass over every provisioned drain this process can reach; `now` is when retries are judged (tests move it). */
  async function shipOnce(now = new Date()): Promise<void> {
    const drains = await db
      .select({ drain: logDrains, environment: environments.handle })
      .from(logDrains)
      .innerJoin(environments, eq(logDrains.environmentId, environments.id))
      .where(eq(logDrains.status, 'provisioned'));
    const live = new Set(drains.map((row) => row.drain.id));
    for (const id of states.keys()) if (!live.has(id)) states.delete(id);
    await eachLimited(drains, DRAIN_CONCURRENCY, async ({ drain, environment }) => {
      try {
        // One process ships a drain at a time: it holds it while its lease lasts, and renews it.
        if (!(await holdDrain(db, logDrains, drain.id, shipperId, leaseMs))) {
          // Another process ships it: what this one held is collected again by that one.
          states.delete(drain.id);
          return;
        }
        await shipDrain(drain, environment, now);
      } catch (error) {
        deps.onError?.(error);
      }
    });
  }

  const task = periodic(() => shipOnce(), deps.onError);

  return {
    shipOnce,
    start(intervalMs = LOG_SHIPPING_INTERVAL_MS) {
      leaseMs = leaseFor(intervalMs);
      task.start(intervalMs);
    },
    stop: task.stop,
  };
}
export type LogShipper = ReturnType<typeof createLogShipper>;
