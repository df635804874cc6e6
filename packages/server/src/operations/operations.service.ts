import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  failureReason,
  isOwner,
  LOG_ERROR_MARK,
  LOG_LEVEL_AT,
  OPERATION_CATALOG,
  type OperationAction,
  type OperationResourceType,
  operationTypeBody,
  operationTypeEntry,
  operationTypeMessages,
  parseSince,
} from '@berth/core';
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { allows, assertAllowed, createAccess } from '../api/access/access.ts';
import type { CallerAccess, CallerRef, CallerUser } from '../auth/caller-access.ts';
import { sameSecret } from '../auth/tokens/token.service.ts';
import { checkOperationPlan } from '../billing/plans/operation-limits.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import {
  apps,
  databases,
  environments,
  logDrains,
  metricDrains,
  operationLogs,
  operations,
  organizations,
  services,
  users,
  vhosts,
} from '../db/schema.ts';
import { ApiError, notFound, parseBody, unprocessable } from '../http/errors.ts';
import type { Paging } from '../http/hal.ts';
import type { OperationFields } from './handler.ts';
import { handlerFor, operationResource } from './handlers/registry.ts';
import type { OperationRow } from './operations.hal.ts';
import { MAX_ATTEMPTS } from './queue.ts';

export interface NewOperation extends OperationFields {
  organizationId: string;
  environmentId: number;
  resourceType: string;
  resourceId: number;
  resourceHandle: string;
  type: string;
  /** Who asked; null for what the platform starts itself (automatic backups and their pruning). */
  user: OperationUser | null;
  /** Why it runs, shown with it (the autoscaler's reason). */
  note?: string;
}

export type OperationUser = CallerUser;

/** Configuration values in an operation are sensitive (read scope, spec 1 §6); others see that variables changed. */
export function showsConfiguration(
  caller: CallerAccess,
  op: Pick<OperationRow, 'environmentId' | 'organizationId'>,
): boolean {
  return allows(
    caller,
    { id: op.environmentId ?? -1, organizationId: op.organizationId },
    'app.configuration.read',
  );
}

export interface OperationFilters {
  resourceType?: string;
  type?: string;
  status?: string;
  /** Only operations created at or after this instant (spec 3 §9: Activity shows 2 weeks). */
  since?: Date;
  /**
   * Berth addition (issue 41): only the newest operation of each resource, so `status=failed` lists the
   * resources whose last operation failed (the apps, databases and endpoints lists say why).
   */
  newestPerResource?: boolean;
}

/** Reads a filter from the query: either name the console uses; `all` (or nothing) means no filter. */
export function filtersFrom(query: unknown): OperationFilters {
  const q = (query ?? {}) as Record<string, unknown>;
  const pick = (...keys: string[]) => {
    for (const key of keys) {
      const value = q[key];
      if (typeof value === 'string' && value !== '' && value !== 'all') return value;
    }
    return undefined;
  };
  const sinceText = pick('since');
  let since: Date | undefined;
  if (sinceText !== undefined) {
    const parsed = parseSince(sinceText, Date.now());
    if ('problem' in parsed) throw unprocessable(parsed.problem, { since: [parsed.problem] });
    since = parsed.since;
  }
  return {
    resourceType: pick('resource_type'),
    type: pick('operation_type', 'type'),
    status: pick('operation_status', 'status'),
    since,
    newestPerResource: ['true', '1'].includes(pick('newest_per_resource') ?? ''),
  };
}

/** Operation lists count their rows up to this many; past it the total is an estimate. */
export const COUNT_CAP = 10_000;

/** The largest page of an operation list whose failed rows get their `failure_reason` (issue 41). */
export const FAILURE_REASONS_PAGE_MAX = 100;
/** The lines of a failed operation's log read for its reason: its first error comes early. */
const FAILURE_REASON_LINES_MAX = 2000;

/** Where a page of an operation list starts: after the row with this update time and id. */
export interface OperationCursor {
  updatedAt: Date;
  id: number;
}

/** The `after` of a next link: the last row's update time (ms since the epoch) and id. */
export function cursorOf(op: Pick<OperationRow, 'updatedAt' | 'id'>): string {
  return `${op.updatedAt.getTime()}.${op.id}`;
}

export const cursorMessage = 'after must be the cursor of a next link';
/** 9999-12-31T23:59:59.999Z, the last instant a cursor may name. */
const LAST_CURSOR_MS = 253_402_300_799_999;

/** Reads `after`; anything but the cursor a next link carries is refused (422). */
export function cursorFrom(query: unknown): OperationCursor | undefined {
  const text = (query as Record<string, unknown> | null)?.after;
  if (text === undefined || text === '') return undefined;
  const match = typeof text === 'string' && text.length <= 40 ? /^(\d{1,15})\.(\d{1,15})$/.exec(text) : null;
  const ms = match ? Number(match[1]) : Number.NaN;
  // Past the year 9999 an instant has no timestamp the database reads: not a cursor of ours.
  if (!match || !(ms <= LAST_CURSOR_MS)) {
    throw unprocessable(cursorMessage, { after: [cursorMessage] });
  }
  return { updatedAt: new Date(ms), id: Number(match[2]) };
}

/** How many operations an organization may have waiting, and how fast one user may ask for them. */
export interface OperationLimits {
  queuedPerOrganization: number;
  perUserPerMinute: number;
}

/** The 429 texts, kept in one place so the API and its tests say the same thing. */
export const operationLimitMessages = {
  queueFull: (max: number) =>
    `Too many operations are queued for this organization (at most ${max}). Wait for some to finish and try again.`,
  tooFast: (perMinute: number) =>
    `You are starting operations too quickly (at most ${perMinute} a minute). Wait a minute and try again.`,
} as const;

/** The key operation log links are signed with, derived from the server secret (the same in every process). */
export function operationLogsKey(serverSecret: Uint8Array): Uint8Array {
  return createHmac('sha256', serverSecret).update('berth operation log links').digest();
}

/** The line that opens a retry's lines in an operation's log. */
const attemptHeading = (attempt: number) => `--- Attempt ${attempt} of ${MAX_ATTEMPTS} ---`;

/** How many log lines one look at a followed operation reads. */
const FOLLOW_BATCH = 1000;

export function createOperationsService(deps: {
  db: Db;
  logsKey: Uint8Array;
  /** Called once a new operation is committed (the worker looks at the queue at once). */
  onQueued?: () => void;
  /** Omitted only by tools and tests that build the service themselves: then nothing is capped. */
  limits?: OperationLimits;
}) {
  const { db, limits } = deps;
  const access = createAccess(db);

  /**
   * Refuses (429) an operation over the organization's queue cap or the user's rate. The user's and
   * the organization's rows stay locked until the insert commits, so parallel requests are counted
   * one after another and cannot both take the last slot. Always user first, then organization, so
   * two enqueues never wait on each other in opposite orders.
   */
  async function checkLimits(tx: DbOrTx, input: NewOperation): Promise<void> {
    if (!limits) return;
    // NO KEY UPDATE: inserts that merely reference these rows (tokens, environments, ...) are not held up.
    if (input.user !== null) {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, input.user.id)).for('no key update');
    }
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, input.organizationId))
      .for('no key update');
    if (input.user === null) return checkQueue(tx, input, limits);
    const [recent] = await tx
      .select({ value: count() })
      .from(operations)
      // The database's clock, the one created_at is written with.
      .where(
        and(eq(operations.userId, input.user.id), sql`${operations.createdAt} > now() - interval '1 minute'`),
      );
    if ((recent?.value ?? 0) >= limits.perUserPerMinute) {
      throw new ApiError(429, 'rate_limited', operationLimitMessages.tooFast(limits.perUserPerMinute));
    }
    await checkQueue(tx, input, limits);
  }

  /** The organization's queue cap holds for the platform's own operations too: no tenant delays another. */
  async function checkQueue(tx: DbOrTx, input: NewOperation, limits: OperationLimits): Promise<void> {
    const [queued] = await tx
      .select({ value: count() })
      .from(operations)
      .where(and(eq(operations.organizationId, input.organizationId), eq(operations.status, 'queued')));
    if ((queued?.value ?? 0) >= limits.queuedPerOrganization) {
      throw new ApiError(429, 'queue_full', operationLimitMessages.queueFull(limits.queuedPerOrganization));
    }
  }

  function sign(operationId: number, expires: number): string {
    return createHmac('sha256', deps.logsKey)
      .update(`operation-logs:${operationId}:${expires}`)
      .digest('base64url');
  }

  /**
   * Inserts a queued operation in one transaction with what its handler changes as it is queued
   * (`onEnqueue`), unless the organization's queue is full or the user is over their rate (429).
   * Every new operation comes here.
   */
  async function enqueue(input: NewOperation): Promise<OperationRow> {
    const op = await db.transaction(async (tx) => {
      await checkLimits(tx, input);
      // The organization's plan: profiles, memory, disk and backups per database (billing/plans).
      const reserved = await checkOperationPlan(tx, { ...input, automated: input.user === null });
      const [row] = await tx
        .insert(operations)
        .values({
          organizationId: input.organizationId,
          environmentId: input.environmentId,
          resourceType: input.resourceType,
          resourceId: input.resourceId,
          resourceHandle: input.resourceHandle,
          type: input.type,
          userId: input.user?.id ?? null,
          userName: input.user?.name ?? '',
          userEmail: input.user?.email ?? '',
          gitRef: input.gitRef ?? null,
          dockerRef: input.dockerRef ?? null,
          containerCount: input.containerCount ?? null,
          containerSize: input.containerSize ?? null,
          instanceProfile: input.instanceProfile ?? null,
          env: input.env ?? null,
          diskSize: input.diskSize ?? null,
          reservedMemoryMb: reserved.reservedMemoryMb,
          provisionedIops: input.provisionedIops ?? 0,
          parameters: input.parameters ?? null,
          note: input.note ?? '',
          automated: input.user === null,
        })
        .returning();
      if (!row) throw new Error('Operation insert returned nothing');
      await handlerFor(row.resourceType, row.type)?.onEnqueue?.(tx, row);
      return row;
    });
    deps.onQueued?.();
    return op;
  }

  /** Operations on an app, and with `withServices` also on its services and their endpoints. */
  function appOperations(appId: number, withServices: boolean): SQL | undefined {
    const onApp = and(eq(operations.resourceType, 'app'), eq(operations.resourceId, appId));
    if (!withServices) return onApp;
    const appServices = db.select({ id: services.id }).from(services).where(eq(services.appId, appId));
    // The app's endpoints are on its services too (spec 2 §2: the app page shows their activity).
    const appEndpoints = db
      .select({ id: vhosts.id })
      .from(vhosts)
      .where(inArray(vhosts.serviceId, appServices));
    return or(
      onApp,
      and(eq(operations.resourceType, 'service'), inArray(operations.resourceId, appServices)),
      and(eq(operations.resourceType, 'vhost'), inArray(operations.resourceId, appEndpoints)),
    );
  }

  /** Operations on a database, and with `withServices` also on its service and endpoints. */
  function databaseOperations(databaseId: number, withServices: boolean): SQL | undefined {
    const onDatabase = and(eq(operations.resourceType, 'database'), eq(operations.resourceId, databaseId));
    if (!withServices) return onDatabase;
    const databaseServices = db
      .select({ id: services.id })
      .from(services)
      .where(eq(services.databaseId, databaseId));
    const databaseEndpoints = db
      .select({ id: vhosts.id })
      .from(vhosts)
      .where(inArray(vhosts.serviceId, databaseServices));
    return or(
      onDatabase,
      and(eq(operations.resourceType, 'service'), inArray(operations.resourceId, databaseServices)),
      and(eq(operations.resourceType, 'vhost'), inArray(operations.resourceId, databaseEndpoints)),
    );
  }

  function environmentsScope(environmentIds: number[]): SQL {
    return inArray(operations.environmentId, environmentIds.length ? environmentIds : [-1]);
  }

  async function environmentOf(op: OperationRow) {
    if (!op.environmentId) return undefined;
    const [row] = await db.select().from(environments).where(eq(environments.id, op.environmentId));
    return row;
  }

  return {
    enqueue,

    /**
     * `POST /apps|services|vhosts/:id/operations` (contract §6): the resource must be visible to the
     * caller (404), the type one it takes (422), the caller must have the type's scope (403), the
     * resource free to take it and the body valid for the type (422). Read in that order, so a caller
     * who may not see or run an operation learns nothing from the body it sent.
     */
    async start(
      ref: CallerRef,
      resourceType: OperationResourceType,
      id: number | null,
      body: unknown,
    ): Promise<{ op: OperationRow; caller: CallerAccess }> {
      const resource = operationResource(resourceType);
      const caller = await access.caller(ref);
      const found = id === null ? undefined : await resource.load(db, id);
      // Seeing the resource comes first; the type's own action is checked once the body names it.
      const { row: target, environment } = await access.resource(
        caller,
        found,
        resource.readAction,
        resource.notFound,
      );
      const { type } = parseBody(operationTypeBody, body);
      const entry = operationTypeEntry(resourceType, type);
      const handler = resource.handler(type);
      if (!entry || !handler) {
        throw unprocessable(operationTypeMessages.unsupported(type, OPERATION_CATALOG[resourceType].noun));
      }
      // The catalog names each type's action; ActionName is built from those very names.
      assertAllowed(caller, environment, entry.action as OperationAction);
      const refusal = resource.refusal?.(target);
      if (refusal) throw unprocessable(refusal);
      const fields =
        (await handler.accept?.(parseBody(entry.body, body), target, {
          db,
          environment: (environmentId, action) => access.environment(caller, environmentId, action),
        })) ?? {};
      const op = await enqueue({
        ...fields,
        organizationId: environment.organizationId,
        environmentId: environment.id,
        resourceType,
        resourceId: target.id,
        resourceHandle: resource.handle(target),
        type,
        user: caller.user,
      });
      return { op, caller };
    },

    async get(id: number): Promise<OperationRow | undefined> {
      const [row] = await db.select().from(operations).where(eq(operations.id, id));
      return row;
    },

    /** An operation the caller may see: through its environment, or as an owner once that is gone. */
    async visible(ref: CallerRef, id: number | null): Promise<OperationRow> {
      const caller = await access.caller(ref);
      const [op] = id === null ? [] : await db.select().from(operations).where(eq(operations.id, id));
      const environment = op?.environmentId == null ? undefined : await environmentOf(op);
      if (op && !environment) {
        const actor = caller.actors.get(op.organizationId);
        if (!actor || !isOwner(actor)) throw notFound('Operation');
        return op;
      }
      return (await access.resource(caller, op, 'operation.read', 'Operation')).row;
    },

    /** Operations of the environments the caller may read in one of their organizations (404 if not a member). */
    async organizationScope(ref: CallerRef, organizationId: string): Promise<SQL> {
      const caller = await access.caller(ref);
      access.member(caller, organizationId, 'operation.read');
      const [readable, all] = await Promise.all([
        access.readableEnvironments(caller, 'operation.read'),
        db.$count(environments, eq(environments.organizationId, organizationId)),
      ]);
      const ids = readable
        .filter((environment) => environment.organizationId === organizationId)
        .map((environment) => environment.id);
      // Reading every environment (an owner, most often) is reading the organization's operations that
      // have one: the (organization, updated_at, id) index then serves the page whatever its size.
      if (ids.length === all && all > 0) {
        return and(eq(operations.organizationId, organizationId), isNotNull(operations.environmentId)) as SQL;
      }
      return environmentsScope(ids);
    },

    /** Operations of one environment the caller may read. */
    async environmentScope(ref: CallerRef, environmentId: number | null) {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'operation.read');
      return { environment, where: environmentsScope([environment.id]) };
    },

    /**
     * Operations on an app (and with `withServices` its services and endpoints). An absent app answers
     * as its environment would: 404 Environment, as this list always has.
     */
    async appScope(ref: CallerRef, appId: number | null, withServices: boolean) {
      const caller = await access.caller(ref);
      const [app] = appId === null ? [] : await db.select().from(apps).where(eq(apps.id, appId));
      await access.environment(caller, app?.environmentId, 'operation.read');
      if (!app) throw notFound('App');
      return { app, where: appOperations(app.id, withServices) };
    },

    /** Operations on a database the caller may read (and its service's and endpoints'). */
    async databaseScope(ref: CallerRef, databaseId: number | null, withServices: boolean) {
      const caller = await access.caller(ref);
      const [database] =
        databaseId === null ? [] : await db.select().from(databases).where(eq(databases.id, databaseId));
      const { row } = await access.resource(caller, database, 'operation.read', 'Database');
      return { database: row, where: databaseOperations(row.id, withServices) };
    },

    /** Operations on a drain the caller may read (issue 41: a failed drain's list says why). */
    async drainScope(ref: CallerRef, kind: 'log_drain' | 'metric_drain', drainId: number | null) {
      const caller = await access.caller(ref);
      const table = kind === 'log_drain' ? logDrains : metricDrains;
      const [drain] = drainId === null ? [] : await db.select().from(table).where(eq(table.id, drainId));
      const { row } = await access.resource(
        caller,
        drain,
        'operation.read',
        kind === 'log_drain' ? 'Log drain' : 'Metric drain',
      );
      return { drain: row, where: and(eq(operations.resourceType, kind), eq(operations.resourceId, row.id)) };
    },

    /** Operations on a service the caller may read; an absent one is 404 Environment, as above. */
    async serviceScope(ref: CallerRef, serviceId: number | null) {
      const caller = await access.caller(ref);
      const [service] =
        serviceId === null ? [] : await db.select().from(services).where(eq(services.id, serviceId));
      await access.environment(caller, service?.environmentId, 'operation.read');
      if (!service) throw notFound('Service');
      return {
        service,
        where: and(eq(operations.resourceType, 'service'), eq(operations.resourceId, service.id)),
      };
    },

    /**
     * A page of operations matching the scope and filters, newest first. After a cursor (the last row
     * of the page before, from `_links.next`) the page starts there on the (scope, updated_at, id)
     * index; without one it is offset by its number. The total is counted up to COUNT_CAP rows only:
     * past that it is an estimate, at least one more than the rows up to this page while more follow,
     * so the count costs the same for a busy organization as for a quiet one.
     */
    async list(scope: SQL | undefined, filters: OperationFilters, paging: Paging, after?: OperationCursor) {
      const conditions = [scope];
      if (filters.resourceType) conditions.push(eq(operations.resourceType, filters.resourceType));
      if (filters.type) conditions.push(eq(operations.type, filters.type));
      if (filters.status) conditions.push(eq(operations.status, filters.status));
      if (filters.since) {
        // updated_at >= created_at, so the first bound is implied by the second; it lets the lists'
        // (environment | organization, updated_at) indexes scan only the window.
        conditions.push(gte(operations.updatedAt, filters.since), gte(operations.createdAt, filters.since));
      }
      if (filters.newestPerResource) {
        // Newest by id, as the apps' and databases' last_operation embeds; on the resource index.
        conditions.push(sql`not exists (select 1 from ${operations} as later
          where later.resource_type = ${operations.resourceType}
            and later.resource_id = ${operations.resourceId} and later.id > ${operations.id})`);
      }
      const where = and(...conditions.filter((c): c is SQL => c !== undefined));
      const startAfter = after
        ? sql`(${operations.updatedAt}, ${operations.id}) < (${after.updatedAt.toISOString()}::timestamptz, ${after.id}::bigint)`
        : undefined;
      const capped = db
        .select({ one: sql`1` })
        .from(operations)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('capped');
      const [found, [counted]] = await Promise.all([
        db
          .select()
          .from(operations)
          .where(and(where, startAfter))
          .orderBy(desc(operations.updatedAt), desc(operations.id))
          // One more row than the page says whether another page follows.
          .limit(paging.perPage + 1)
          .offset(after ? 0 : (paging.page - 1) * paging.perPage),
        db.select({ value: count() }).from(capped),
      ]);
      const rows = found.slice(0, paging.perPage);
      const more = found.length > paging.perPage;
      const countedRows = counted?.value ?? 0;
      const seen = (paging.page - 1) * paging.perPage + rows.length;
      // Counted in full, or past the cap: then at least one more than seen while rows follow, and on the
      // last page exactly what was seen.
      if (countedRows <= COUNT_CAP) return { rows, total: countedRows, estimated: false, more };
      if (!more) return { rows, total: seen, estimated: false, more };
      return { rows, total: Math.max(COUNT_CAP, seen + 1), estimated: true, more };
    },

    /**
     * Why each failed operation of a list failed (issue 41): its first error line, read on the log's
     * (operation, id) index and stopping at that line, else its note. One query for a page. Bounded, so
     * a list asked for costs the same whoever asks: only pages asked for at most FAILURE_REASONS_PAGE_MAX
     * rows get reasons (the others leave `failure_reason` out, and the console reads the log of the one it
     * shows), and only the first FAILURE_REASON_LINES_MAX lines of each log are looked at.
     */
    async failureReasons(
      rows: readonly OperationRow[],
      perPage: number,
    ): Promise<Map<number, string | null>> {
      const failed = rows.filter((op) => op.status === 'failed');
      const reasons = new Map<number, string | null>();
      if (failed.length === 0 || perPage > FAILURE_REASONS_PAGE_MAX) return reasons;
      const ids = failed.map((op) => op.id);
      const found = await db.execute(sql`
        select failed.id as operation_id, first_error.line
        from unnest(array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::bigint[]) as failed(id)
        cross join lateral (
          select first_lines.line from (
            select ${operationLogs.id} as id, ${operationLogs.line} as line from ${operationLogs}
            where ${operationLogs.operationId} = failed.id
            order by ${operationLogs.id} limit ${FAILURE_REASON_LINES_MAX}
          ) as first_lines
          where substr(first_lines.line, ${LOG_LEVEL_AT + 1}, ${LOG_ERROR_MARK.length}) = ${LOG_ERROR_MARK}
          order by first_lines.id limit 1
        ) as first_error`);
      const { rows: lines } = found as unknown as { rows: { operation_id: number | string; line: string }[] };
      const lineOf = new Map(lines.map((row) => [Number(row.operation_id), row.line]));
      for (const op of failed) reasons.set(op.id, failureReason(lineOf.get(op.id) ?? '', op.note));
      return reasons;
    },

    async logText(operationId: number): Promise<string> {
      const lines = await db
        .select({ line: operationLogs.line, attempt: operationLogs.attempt })
        .from(operationLogs)
        .where(eq(operationLogs.operationId, operationId))
        .orderBy(asc(operationLogs.id));
      // A retry reads as one: each later attempt's lines open with a heading of their own.
      let attempt = 0;
      let text = '';
      for (const line of lines) {
        if (line.attempt > 1 && line.attempt !== attempt) text += `${attemptHeading(line.attempt)}\n`;
        if (line.attempt !== 0) attempt = line.attempt;
        text += `${line.line}\n`;
      }
      return text;
    },

    /**
     * Follows an operation while it runs, whichever process's worker runs it: hands each batch of new log
     * lines to `onLines` (a retry's lines opened by their heading, as in the log text) and answers how it
     * ended; null when the operation is gone or `signal` stopped the following first.
     */
    async follow(
      operationId: number,
      onLines: (lines: string[]) => void,
      options: { signal: AbortSignal; pollMs: number },
    ): Promise<'succeeded' | 'failed' | null> {
      let after = 0;
      let attempt = 0;
      while (!options.signal.aborted) {
        // The status first: once it reads ended, every line written before the end is there to read.
        const [op] = await db
          .select({ status: operations.status })
          .from(operations)
          .where(eq(operations.id, operationId));
        if (!op) return null;
        const rows = await db
          .select({ id: operationLogs.id, line: operationLogs.line, attempt: operationLogs.attempt })
          .from(operationLogs)
          .where(and(eq(operationLogs.operationId, operationId), gt(operationLogs.id, after)))
          .orderBy(asc(operationLogs.id))
          .limit(FOLLOW_BATCH);
        const lines: string[] = [];
        for (const row of rows) {
          if (row.attempt > 1 && row.attempt !== attempt) lines.push(attemptHeading(row.attempt));
          if (row.attempt !== 0) attempt = row.attempt;
          lines.push(row.line);
          after = row.id;
        }
        if (lines.length > 0) onLines(lines);
        if (rows.length === FOLLOW_BATCH) continue;
        if (op.status === 'succeeded' || op.status === 'failed') return op.status;
        try {
          await sleep(options.pollMs, undefined, { signal: options.signal });
        } catch {
          return null;
        }
      }
      return null;
    },

    /** A time-limited capability URL path for an operation's log (contract §1.10). */
    logsPath(operationId: number, ttlSeconds = 600): string {
      const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
      return `/operation_logs/${operationId}?expires=${expires}&signature=${sign(operationId, expires)}`;
    },

    verifyLogsSignature(operationId: number, expires: number, signature: string): boolean {
      if (!Number.isFinite(expires) || expires < Math.floor(Date.now() / 1000)) return false;
      return sameSecret(sign(operationId, expires), signature);
    },
  };
}
export type OperationsService = ReturnType<typeof createOperationsService>;
