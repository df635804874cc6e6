import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import type { Database } from './client.ts';
import { selectAscendingJsonArray, selectPage, selectPlainColumns } from './select-page.ts';

// The list query reads a page's rows as one JSON text (select-page.ts): each row must come back as
// drizzle's own select reads it, on PGlite and on PostgreSQL alike.

const sample = pgTable('select_page_sample', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  handle: text('handle').notNull(),
  note: text('note'),
  count: integer('count').notNull(),
  big: bigint('big', { mode: 'number' }),
  ratio: doublePrecision('ratio'),
  on: boolean('on').notNull(),
  ref: uuid('ref'),
  env: jsonb('env').$type<unknown>(),
  at: timestamp('at', { withTimezone: true, precision: 3 }).notNull(),
});
const priced = pgTable('select_page_priced', {
  id: integer('id').primaryKey(),
  amount: numeric('amount'),
});

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.execute(sql`create table select_page_sample (id bigserial primary key, handle text not null,
    note text, count integer not null, big bigint, ratio double precision, "on" boolean not null, ref uuid,
    env jsonb, at timestamptz(3) not null)`);
  await database.db.execute(sql`create table select_page_priced (id integer primary key, amount numeric)`);
  await database.db.insert(sample).values([
    {
      handle: 'a "quoted" \\ one',
      note: null,
      count: -3,
      big: 2 ** 52 + 1,
      ratio: 0.1,
      on: true,
      ref: '0b8f5a4e-2f4c-4a39-9f0e-5d3b0a6c1e2f',
      env: { KEY: 'v', NESTED: { n: 1 }, EMPTY: null },
      at: new Date('2026-11-28T00:07:13.908Z'),
    },
    { handle: 'ünïcode ✓', count: 0, on: false, env: '123', at: new Date('1999-12-31T23:59:59.999Z') },
    {
      handle: 'third',
      count: 7,
      ratio: Number.NaN,
      on: true,
      env: ['x', 2],
      at: new Date('2026-01-01T00:00:00Z'),
    },
  ]);
});

afterAll(async () => {
  await database?.close();
});

describe('the list query', () => {
  it('reads every row as drizzle reads it, in order, whole or a page at a time', async () => {
    const { db } = database;
    const expected = await db.select().from(sample).orderBy(sample.id);
    const whole = await selectPage(db, sample, { where: undefined, orderBy: [sample.id], paging: null });
    // jsonb as stored: drizzle's own select parses a JSON string value a second time ('123' → 123).
    const withoutEnv = <T extends { env: unknown }>(rows: T[]) => rows.map(({ env: _env, ...rest }) => rest);
    expect(withoutEnv(whole.items)).toEqual(withoutEnv(expected));
    expect(whole.items.map((item) => item.env)).toEqual([
      { KEY: 'v', NESTED: { n: 1 }, EMPTY: null },
      '123',
      ['x', 2],
    ]);
    expect(whole.items[0]?.at).toBeInstanceOf(Date);
    const page = await selectPage(db, sample, {
      where: sql`${sample.count} >= 0`,
      orderBy: [sample.id],
      paging: { page: 2, perPage: 1 },
    });
    expect(withoutEnv(page.items)).toEqual(withoutEnv([expected[2] as (typeof expected)[number]]));
    expect(page.paging).toEqual({ page: 2, perPage: 1, total: 2 });
    const none = await selectPage(db, sample, {
      where: sql`false`,
      orderBy: [sample.id],
      paging: null,
    });
    expect(none.items).toEqual([]);
  });

  it('refuses a column type whose JSON would not read back the same, before asking the database', async () => {
    await expect(
      selectPage(database.db, priced, { where: undefined, orderBy: [priced.id], paging: null }),
    ).rejects.toThrow('A list cannot read amount (PgNumeric) from JSON: see READ_FROM_JSON');
  });

  it('reads a column of values and aggregate rows as JSON', async () => {
    const { db } = database;
    const ids = db.select({ id: sample.id }).from(sample).orderBy(sample.id).limit(2).offset(1);
    expect(await selectAscendingJsonArray<number>(db, ids.getSQL())).toEqual(
      (await ids).map((row) => row.id),
    );
    expect(await selectAscendingJsonArray<number>(db, ids.where(sql`false`).getSQL())).toEqual([]);
    const sums = db
      .select({
        on: sql`${sample.on}`.as('on'),
        rows: sql`count(*)`.as('rows'),
        total: sql`sum(${sample.count})`.as('total'),
        ratio: sql`sum(${sample.ratio})`.as('ratio'),
      })
      .from(sample)
      .where(sql`${sample.ratio} is null or ${sample.ratio} < 1`)
      .groupBy(sample.on)
      .orderBy(sample.on);
    expect(await selectPlainColumns(db, sums.getSQL(), ['on', 'rows', 'total', 'ratio'])).toEqual({
      on: [false, true],
      rows: [1, 1],
      total: [0, -3],
      ratio: [null, 0.1],
    });
    // A page of an ordered query keeps its order in every column, as drizzle reads it.
    const page = db
      .select({ id: sql`${sample.id}`.as('id'), count: sql`${sample.count}`.as('count') })
      .from(sample)
      .orderBy(sql`${sample.id} desc`)
      .limit(2)
      .offset(1);
    const expected = await db
      .select({ id: sample.id, count: sample.count })
      .from(sample)
      .orderBy(sql`${sample.id} desc`)
      .limit(2)
      .offset(1);
    expect(await selectPlainColumns(db, page.getSQL(), ['id', 'count'])).toEqual({
      id: expected.map((row) => row.id),
      count: expected.map((row) => row.count),
    });
    // No rows: an empty array for each column.
    const none = db
      .select({ on: sql`${sample.on}`.as('on') })
      .from(sample)
      .where(sql`false`);
    expect(await selectPlainColumns(db, none.getSQL(), ['on'])).toEqual({
      on: [],
    });
  });
});
