import {
  type ActionName,
  type CreateDatabaseInput,
  createDatabaseSchema,
  databaseMessages,
  type UpdateDatabaseInput,
  updateDatabaseSchema,
} from '@berth/core';
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import {
  databaseCredentials,
  databaseImages,
  databases,
  disks,
  environments,
  operations,
  services,
} from '../../db/schema.ts';
import { type Page, selectAsJson } from '../../db/select-page.ts';
import { notFound, parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { allows, createAccess } from '../access/access.ts';
import { retentionPolicyInForce } from '../backups/retention-policy.ts';
import type { DatabaseProblems } from './database-problem.ts';
import type { CredentialRow, DatabaseRow, DatabaseView, DiskRow } from './databases.hal.ts';

/**
 * spec 2 §5 database search: a case-insensitive substring of the handle, id, type, status or the
 * environment's handle. Done here so the list can stay `no_embed` and still find databases.
 */
function searchCondition(search: string): SQL {
  const needle = search.toLowerCase();
  const has = (text: SQL | AnyPgColumn) => sql`strpos(lower(coalesce(${text}, '')), ${needle}) > 0`;
  return sql`(${has(databases.handle)} or ${has(sql`${databases.id}::text`)} or ${has(databases.type)}
    or ${has(databases.status)}
    or exists (select 1 from ${environments} where ${environments.id} = ${databases.environmentId}
      and ${has(environments.handle)}))`;
}

/** `column = any($1)`: one array parameter for a page's 5000 ids rather than 5000 parameters. */
const anyId = (column: AnyPgColumn, ids: number[]) => sql`${column} = any(${sql.param(ids)}::bigint[])`;

export function createDatabasesService(deps: {
  db: Db;
  secrets: SecretBox;
  /** Why a database cannot run now, asked only for a single database's answer (lists stay fast). */
  problems?: DatabaseProblems;
}) {
  const { db, secrets } = deps;
  const access = createAccess(db);

  /** Connection URLs of the databases whose environment grants the caller `sensitive`; "" elsewhere. */
  async function connectionUrls(caller: CallerAccess, rows: DatabaseRow[]): Promise<Map<number, string>> {
    const places = await db
      .select({ id: environments.id, organizationId: environments.organizationId })
      .from(environments)
      .where(inArray(environments.id, [...new Set(rows.map((row) => row.environmentId))]));
    const sensitive = new Set(
      places.filter((place) => allows(caller, place, 'database.credentials.read')).map((place) => place.id),
    );
    const ids = rows.filter((row) => sensitive.has(row.environmentId)).map((row) => row.id);
    if (ids.length === 0) return new Map();
    const credentials = await db
      .select()
      .from(databaseCredentials)
      .where(and(inArray(databaseCredentials.databaseId, ids), eq(databaseCredentials.isDefault, true)));
    return new Map(credentials.map((c) => [c.databaseId, secrets.open(c.connectionUrlSealed)]));
  }

  /** The newest operation on each of these databases (DISTINCT ON keeps the first row per database). */
  function lastOperationsOf(ids: number[]) {
    return db
      .selectDistinctOn([operations.resourceId])
      .from(operations)
      .where(and(eq(operations.resourceType, 'database'), anyId(operations.resourceId, ids)))
      .orderBy(operations.resourceId, desc(operations.id));
  }

  /** What the HAL of many databases needs, in a handful of queries whatever their number. */
  async function views(caller: CallerAccess, rows: DatabaseRow[], embed: boolean): Promise<DatabaseView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [diskRows, urls, lastOperations] = await Promise.all([
      db.select().from(disks).where(inArray(disks.databaseId, ids)),
      connectionUrls(caller, rows),
      embed ? lastOperationsOf(ids) : [],
    ]);
    const diskOf = new Map(diskRows.map((disk) => [disk.databaseId, disk]));
    const lastOperationOf = new Map(lastOperations.map((op) => [op.resourceId, op]));
    return rows.map((database) => ({
      database,
      diskId: diskOf.get(database.id)?.id ?? null,
      connectionUrl: urls.get(database.id) ?? '',
      embedded: embed
        ? { disk: diskOf.get(database.id) ?? null, lastOperation: lastOperationOf.get(database.id) ?? null }
        : undefined,
    }));
  }

  /**
   * A page of databases in one joined query (the disk's id, and when embedded the sealed credential only
   * where the caller has `sensitive`), then, when embedded, the disks and last operations of those rows, by
   * their ids as one array parameter: a page of 5000 costs a handful of queries, as one of 50 does.
   */
  async function page(
    caller: CallerAccess,
    where: SQL | undefined,
    paging: Paging,
    embed: boolean,
  ): Promise<Page<DatabaseView>> {
    const sensitive = await access.readableEnvironmentIds(caller, 'database.credentials.read');
    const window = { limit: paging.perPage, offset: (paging.page - 1) * paging.perPage };
    const credential = and(
      eq(databaseCredentials.databaseId, databases.id),
      eq(databaseCredentials.type, databases.type),
      sensitive.length ? inArray(databases.environmentId, sensitive) : sql`false`,
    );
    const listed = db
      .select({
        ...getTableColumns(databases),
        diskId: sql`${disks.id}`.as('berth_disk_id'),
        // A bare list carries no connection URL: a list every console asks for at sign-in does not ship
        // every database's password (the database itself and its credentials give it to Sensitive Access).
        sealed: (embed ? sql`${databaseCredentials.connectionUrlSealed}` : sql`null::text`).as(
          'berth_sealed',
        ),
      })
      .from(databases)
      .leftJoin(disks, eq(disks.databaseId, databases.id));
    // Read as one JSON text, as the list query reads its rows (db/select-page.ts): drizzle's row mapping of
    // 5000 joined rows took a quarter of an embedded page's time.
    const [listedRows, total] = await Promise.all([
      selectAsJson(
        db,
        databases,
        (embed ? listed.leftJoin(databaseCredentials, credential) : listed)
          .where(where)
          .orderBy(databases.id)
          .limit(window.limit)
          .offset(window.offset)
          .getSQL(),
        { diskId: 'berth_disk_id', sealed: 'berth_sealed' },
      ),
      db.$count(databases, where),
    ]);
    // Disks and last operations only when embedded, read for the rows above by their ids: the page's
    // window asked for again could shift if a database came or went in between.
    const ids = listedRows.map((row) => row.id);
    const [pageDisks, lastOperations] =
      embed && ids.length
        ? await Promise.all([
            selectAsJson(db, disks, db.select().from(disks).where(anyId(disks.databaseId, ids)).getSQL()),
            selectAsJson(db, operations, lastOperationsOf(ids).getSQL()),
          ])
        : [[], []];
    const diskOf = new Map(pageDisks.map((disk) => [disk.databaseId, disk]));
    const lastOperationOf = new Map(lastOperations.map((op) => [op.resourceId, op]));
    return {
      items: listedRows.map(({ diskId, sealed, ...database }) => ({
        database,
        diskId: typeof diskId === 'number' ? diskId : null,
        connectionUrl: typeof sealed === 'string' ? secrets.open(sealed) : '',
        embedded: embed
          ? { disk: diskOf.get(database.id) ?? null, lastOperation: lastOperationOf.get(database.id) ?? null }
          : undefined,
      })),
      paging: { page: paging.page, perPage: paging.perPage, total },
    };
  }

  /** Loads a database the caller may take the action on (404 if absent or invisible, 403 if denied). */
  async function load(caller: CallerAccess, id: number | null, action: ActionName) {
    const [database] = id === null ? [] : await db.select().from(databases).where(eq(databases.id, id));
    return access.resource(caller, database, action, 'Database');
  }

  async function view(caller: CallerAccess, database: DatabaseRow): Promise<DatabaseView> {
    const [result] = await views(caller, [database], true);
    if (!result) throw notFound('Database');
    return result;
  }

  /** The image a new database is made from: the one named, else the default of the type asked for. */
  async function imageFor(input: CreateDatabaseInput) {
    const imageId = input.database_image_id
      ? parseNumericId(input.database_image_id.split('/').pop() ?? '')
      : null;
    const [image] =
      imageId !== null
        ? await db.select().from(databaseImages).where(eq(databaseImages.id, imageId))
        : input.type
          ? await db
              .select()
              .from(databaseImages)
              .where(and(eq(databaseImages.type, input.type), eq(databaseImages.isDefault, true)))
          : [];
    if (!input.database_image_id && !input.type) throw unprocessable(databaseMessages.imageRequired);
    if (!image?.visible || (input.type && input.type !== image.type)) {
      throw unprocessable(databaseMessages.imageUnknown, { database_image_id: ['unknown'] });
    }
    return image;
  }

  const duplicate = (handle: string) =>
    unprocessable(databaseMessages.duplicate(handle), { handle: ['taken'] });

  return {
    access,
    load,
    /** The HAL views of databases already loaded, for the lists of other resources that embed them. */
    views,

    /** Databases of every environment the caller may see, across their organizations (contract §1.11). */
    async list(ref: CallerRef, paging: Paging, embed: boolean, search?: string) {
      const caller = await access.caller(ref);
      const environmentIds = await access.readableEnvironmentIds(caller, 'database.read');
      const readable = inArray(databases.environmentId, environmentIds);
      return page(caller, search ? and(readable, searchCondition(search)) : readable, paging, embed);
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging, embed: boolean) {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'database.read');
      return page(caller, eq(databases.environmentId, environment.id), paging, embed);
    },

    async get(ref: CallerRef, id: number | null): Promise<DatabaseView> {
      const caller = await access.caller(ref);
      const { row } = await load(caller, id, 'database.read');
      const [found, statusProblem] = await Promise.all([
        view(caller, row),
        deps.problems ? deps.problems(row.id) : null,
      ]);
      return { ...found, statusProblem };
    },

    /** The record only (contract §5.8): `pending` until the console posts `provision`. */
    async create(ref: CallerRef, environmentId: number | null, body: unknown): Promise<DatabaseView> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'database.create');
      const input = parseBody(createDatabaseSchema, body);
      const image = await imageFor(input);
      const [created] = await db
        .insert(databases)
        .values({
          environmentId: environment.id,
          handle: input.handle,
          type: image.type,
          databaseImageId: image.id,
          dockerRepo: image.dockerRepo,
          enableBackups: input.enable_backups,
          status: 'pending',
        })
        .onConflictDoNothing()
        .returning();
      if (!created) throw duplicate(input.handle);
      return view(caller, created);
    },

    /**
     * `PUT /databases/:id`: a rename needs `deploy`, the backup switches `admin`. Turning backups off turns
     * PITR off too (spec 2 §4); PITR goes on only where the engine and the retention policy allow it.
     */
    async update(ref: CallerRef, id: number | null, body: unknown): Promise<DatabaseView> {
      const caller = await access.caller(ref);
      const { row: database, environment } = await load(caller, id, 'database.read');
      const input: UpdateDatabaseInput = parseBody(updateDatabaseSchema, body);
      const changes: Partial<DatabaseRow> = {};
      if (input.handle !== undefined && input.handle !== database.handle) {
        await access.resource(caller, database, 'database.rename', 'Database');
        changes.handle = input.handle;
      }
      const backupsChange =
        input.enable_backups !== undefined && input.enable_backups !== database.enableBackups;
      const pitrChange = input.enable_pitr !== undefined && input.enable_pitr !== database.enablePitr;
      if (backupsChange || pitrChange) {
        await access.resource(caller, database, 'database.backups.update', 'Database');
      }
      const enableBackups = input.enable_backups ?? database.enableBackups;
      if (backupsChange) changes.enableBackups = enableBackups;
      if (!enableBackups && database.enablePitr) changes.enablePitr = false;
      if (pitrChange && input.enable_pitr) {
        if (!enableBackups) throw unprocessable(databaseMessages.backupsDisabled);
        const [image] = database.databaseImageId
          ? await db.select().from(databaseImages).where(eq(databaseImages.id, database.databaseImageId))
          : [];
        if (!image?.pitrSupported) throw unprocessable(databaseMessages.pitrNotSupported);
        if ((await retentionPolicyInForce(db, environment.id)).pitrDays === 0) {
          throw unprocessable(databaseMessages.pitrNeedsRetention);
        }
        changes.enablePitr = true;
      } else if (pitrChange) {
        changes.enablePitr = false;
      }
      if (Object.keys(changes).length === 0) return view(caller, database);
      try {
        const [updated] = await db
          .update(databases)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(databases.id, database.id))
          .returning();
        return view(caller, updated ?? database);
      } catch (error) {
        if (isUniqueViolation(error) && changes.handle) throw duplicate(changes.handle);
        throw error;
      }
    },

    /** Databases whose `initialize_from` is this one (contract §5.8). */
    async dependents(ref: CallerRef, id: number | null, paging: Paging) {
      const caller = await access.caller(ref);
      const { row } = await load(caller, id, 'database.read');
      return page(caller, eq(databases.initializeFromId, row.id), paging, false);
    },

    /** Stops treating a replica as a dependent of its source (spec 2 §2 settings: unlink replica). */
    async unlink(ref: CallerRef, id: number | null): Promise<void> {
      const { row } = await load(await access.caller(ref), id, 'database.unlink');
      if (row.initializeFromId === null) throw unprocessable(databaseMessages.notReplica);
      await db
        .update(databases)
        .set({ initializeFromId: null, updatedAt: new Date() })
        .where(eq(databases.id, row.id));
    },

    /** The credentials, opened: only for `sensitive` (spec 2 §6). */
    async credentials(
      ref: CallerRef,
      id: number | null,
    ): Promise<{ credential: CredentialRow; url: string }[]> {
      const { row } = await load(await access.caller(ref), id, 'database.credentials.read');
      const rows = await db
        .select()
        .from(databaseCredentials)
        .where(eq(databaseCredentials.databaseId, row.id))
        .orderBy(databaseCredentials.id);
      return rows.map((credential) => ({ credential, url: secrets.open(credential.connectionUrlSealed) }));
    },

    async disk(ref: CallerRef, id: number | null): Promise<DiskRow> {
      const [disk] = id === null ? [] : await db.select().from(disks).where(eq(disks.id, id));
      return (await access.resource(await access.caller(ref), disk, 'disk.read', 'Disk')).row;
    },

    /** The database's service (the engine's container), for its services list. */
    async servicesOf(ref: CallerRef, id: number | null) {
      const { row } = await load(await access.caller(ref), id, 'service.read');
      return db.select().from(services).where(eq(services.databaseId, row.id)).orderBy(services.id);
    },
  };
}
export type DatabasesService = ReturnType<typeof createDatabasesService>;
