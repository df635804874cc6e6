import {
  AUDIT_CSV_HEADER,
  AUDIT_EXPORT_FORMATS,
  type AuditExportFormat,
  auditFilterMessages,
  csvCell,
  isAuditAction,
  isOwner,
  parseActorFilter,
  parseSince,
  parseUntil,
  ROLE_TYPES,
  visibleRoleTypes,
} from '@berth/core';
import { and, count, desc, eq, gte, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import { organizationsManagingMembers } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { auditEvents, roles } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess } from '../access/access.ts';

export type AuditEventRow = typeof auditEvents.$inferSelect;

export interface AuditFilters {
  action?: string;
  actor?: string;
  since?: Date;
  until?: Date;
}

/** Where a page starts: after the row with this time and id (the last row of the page before). */
export interface AuditCursor {
  createdAt: Date;
  id: number;
}

/** Lists count their rows up to this many; past it the total is an estimate, as operation lists do. */
const COUNT_CAP = 10_000;
/** The export reads this many rows at a time, so memory stays flat however long the history. */
const EXPORT_BATCH = 500;

export const auditCursorMessage = 'after must be the cursor of a next link';

/** Reads the filters of a list or export query; `all` or nothing means no filter (as Activity's). */
export function auditFiltersFrom(query: unknown): AuditFilters {
  const q = (query ?? {}) as Record<string, unknown>;
  const text = (key: string) => {
    const value = q[key];
    return typeof value === 'string' && value !== '' && value !== 'all' ? value : undefined;
  };
  const filters: AuditFilters = {};
  const action = text('action');
  if (action !== undefined) {
    if (!isAuditAction(action))
      throw unprocessable(auditFilterMessages.action, { action: [auditFilterMessages.action] });
    filters.action = action;
  }
  const actor = text('actor');
  if (actor !== undefined) {
    const parsed = parseActorFilter(actor);
    if ('problem' in parsed) throw unprocessable(parsed.problem, { actor: [parsed.problem] });
    filters.actor = parsed.actor;
  }
  const since = text('since');
  if (since !== undefined) {
    const parsed = parseSince(since, Date.now());
    if ('problem' in parsed) throw unprocessable(parsed.problem, { since: [parsed.problem] });
    filters.since = parsed.since;
  }
  const until = text('until');
  if (until !== undefined) {
    const parsed = parseUntil(until);
    if ('problem' in parsed) throw unprocessable(parsed.problem, { until: [parsed.problem] });
    filters.until = parsed.until;
  }
  return filters;
}

/** The `after` of a next link: the last row's time (ms since the epoch) and id. */
export function auditCursorOf(row: Pick<AuditEventRow, 'createdAt' | 'id'>): string {
  return `${row.createdAt.getTime()}.${row.id}`;
}

export function auditCursorFrom(query: unknown): AuditCursor | undefined {
  const text = (query as Record<string, unknown> | null)?.after;
  if (text === undefined || text === '') return undefined;
  const match = typeof text === 'string' && text.length <= 40 ? /^(\d{1,15})\.(\d{1,15})$/.exec(text) : null;
  const ms = match ? Number(match[1]) : Number.NaN;
  if (!match || !(ms <= 253_402_300_799_999)) {
    throw unprocessable(auditCursorMessage, { after: [auditCursorMessage] });
  }
  return { createdAt: new Date(ms), id: Number(match[2]) };
}

export function auditFormatFrom(query: unknown): AuditExportFormat {
  const value = (query as Record<string, unknown> | null)?.format;
  if (value === undefined || value === '') return 'jsonl';
  if (typeof value === 'string' && (AUDIT_EXPORT_FORMATS as readonly string[]).includes(value)) {
    return value as AuditExportFormat;
  }
  throw unprocessable(auditFilterMessages.format, { format: [auditFilterMessages.format] });
}

/** One event as a CSV line (the export's columns, in AUDIT_CSV_HEADER's order). */
function csvLine(row: AuditEventRow): string {
  return `${[
    row.createdAt.toISOString(),
    row.action,
    row.actorEmail,
    row.actorId,
    row.resourceType,
    row.resourceId,
    row.resourceName,
    row.parentType,
    row.parentId,
    row.parentName,
    row.detail,
    row.ipAddress,
  ]
    .map(csvCell)
    .join(',')}\r\n`;
}

export function createAuditEventsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);

  /**
   * The events of an organization the caller may read, as a condition (null: none at all). Activity's
   * permission decides (spec 1 §6, operation.read): an environment's events to those who read its
   * operations; the organization's own (members, roles, tokens, single sign-on) to owners and role
   * admins, who manage those; owners read every event, an environment's deleted since included.
   * Anyone else in the organization reads no org-level event; a stranger gets 404.
   */
  async function visibleScope(ref: CallerRef, organizationId: string): Promise<SQL | null> {
    const caller = await access.caller(ref);
    const actor = access.member(caller, organizationId, 'operation.read');
    const inOrganization = eq(auditEvents.organizationId, organizationId);
    if (isOwner(actor)) return and(inOrganization, await withoutHiddenRoles(actor, organizationId)) as SQL;
    const managing = organizationsManagingMembers(caller, [organizationId]).length > 0;
    const readable = (await access.readableEnvironments(caller, 'operation.read'))
      .filter((environment) => environment.organizationId === organizationId)
      .map((environment) => environment.id);
    const parts: SQL[] = [];
    if (managing) parts.push(isNull(auditEvents.environmentId));
    if (readable.length > 0) parts.push(inArray(auditEvents.environmentId, readable));
    if (parts.length === 0) return null;
    return and(inOrganization, or(...parts), await withoutHiddenRoles(actor, organizationId)) as SQL;
  }

  /**
   * Events about a role the caller may not see (spec 1 §6 isRoleVisible: a Deploy Owner does not see
   * the Account Owner role, nor Billing Owner without billing access) are left out: the role, its
   * members and its permissions. An organization has few roles, so their ids are read and named.
   */
  async function withoutHiddenRoles(
    actor: Parameters<typeof visibleRoleTypes>[0],
    organizationId: string,
  ): Promise<SQL | undefined> {
    const visible = new Set(visibleRoleTypes(actor));
    const hiddenTypes = ROLE_TYPES.filter((type) => !visible.has(type));
    if (hiddenTypes.length === 0) return undefined;
    const hidden = (
      await db
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.organizationId, organizationId), inArray(roles.type, hiddenTypes)))
    ).map((role) => String(role.id));
    if (hidden.length === 0) return undefined;
    const aboutHidden = or(
      and(eq(auditEvents.resourceType, 'role'), inArray(auditEvents.resourceId, hidden)),
      and(eq(auditEvents.parentType, 'role'), inArray(auditEvents.parentId, hidden)),
    ) as SQL;
    // An event without a parent compares as unknown (NULL), which NOT would keep unknown: it is no match.
    return sql`not coalesce(${aboutHidden}, false)`;
  }

  function matching(scope: SQL, filters: AuditFilters): SQL {
    const conditions: SQL[] = [scope];
    if (filters.action) conditions.push(eq(auditEvents.action, filters.action));
    if (filters.actor) conditions.push(eq(auditEvents.actorEmail, filters.actor));
    if (filters.since) conditions.push(gte(auditEvents.createdAt, filters.since));
    if (filters.until) conditions.push(lt(auditEvents.createdAt, filters.until));
    return and(...conditions) as SQL;
  }

  const startAfter = (after: AuditCursor) =>
    sql`(${auditEvents.createdAt}, ${auditEvents.id}) < (${after.createdAt.toISOString()}::timestamptz, ${after.id}::bigint)`;

  return {
    visibleScope,

    /**
     * A page of the caller's visible events, newest first. After a cursor the page starts there on the
     * (organization, created_at, id) index; without one it is offset by its number.
     */
    async list(
      ref: CallerRef,
      organizationId: string,
      filters: AuditFilters,
      paging: Paging,
      after?: AuditCursor,
    ) {
      const scope = await visibleScope(ref, organizationId);
      if (!scope) return { rows: [] as AuditEventRow[], total: 0, estimated: false, more: false };
      const where = matching(scope, filters);
      const capped = db
        .select({ one: sql`1` })
        .from(auditEvents)
        .where(where)
        .limit(COUNT_CAP + 1)
        .as('capped');
      const [found, [counted]] = await Promise.all([
        db
          .select()
          .from(auditEvents)
          .where(after ? and(where, startAfter(after)) : where)
          .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
          .limit(paging.perPage + 1)
          .offset(after ? 0 : (paging.page - 1) * paging.perPage),
        db.select({ value: count() }).from(capped),
      ]);
      const rows = found.slice(0, paging.perPage);
      const more = found.length > paging.perPage;
      const countedRows = counted?.value ?? 0;
      const seen = (paging.page - 1) * paging.perPage + rows.length;
      if (countedRows <= COUNT_CAP) return { rows, total: countedRows, estimated: false, more };
      if (!more) return { rows, total: seen, estimated: false, more };
      return { rows, total: Math.max(COUNT_CAP, seen + 1), estimated: true, more };
    },

    /**
     * The caller's visible events as export lines, newest first, read a batch at a time. The caller's
     * access is checked before the first line (a refusal is an error answer, not a cut file).
     */
    async exportLines(
      ref: CallerRef,
      organizationId: string,
      filters: AuditFilters,
      format: AuditExportFormat,
    ): Promise<AsyncGenerator<string>> {
      const scope = await visibleScope(ref, organizationId);
      const where = scope ? matching(scope, filters) : null;
      async function* lines(): AsyncGenerator<string> {
        if (format === 'csv') yield `${AUDIT_CSV_HEADER.join(',')}\r\n`;
        if (!where) return;
        let after: AuditCursor | undefined;
        for (;;) {
          const batch = await db
            .select()
            .from(auditEvents)
            .where(after ? and(where, startAfter(after)) : where)
            .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
            .limit(EXPORT_BATCH);
          for (const row of batch) {
            yield format === 'csv' ? csvLine(row) : `${JSON.stringify(auditEventFields(row))}\n`;
          }
          const last = batch.at(-1);
          if (!last || batch.length < EXPORT_BATCH) return;
          after = { createdAt: last.createdAt, id: last.id };
        }
      }
      return lines();
    },
  };
}
export type AuditEventsService = ReturnType<typeof createAuditEventsService>;

/** One event's fields as the list and the JSON-lines export both write them (without links). */
export function auditEventFields(row: AuditEventRow) {
  return {
    id: String(row.id),
    created_at: row.createdAt.toISOString(),
    action: row.action,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    resource_type: row.resourceType,
    resource_id: row.resourceId,
    resource_name: row.resourceName,
    parent_type: row.parentType,
    parent_id: row.parentId,
    parent_name: row.parentName,
    detail: row.detail,
    ip_address: row.ipAddress,
    environment_id: row.environmentId === null ? null : String(row.environmentId),
  };
}
