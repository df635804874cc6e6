import { bigint, pgTable } from 'drizzle-orm/pg-core';
import { environments } from './environments.ts';

/**
 * A number that moves whenever any of an environment's apps changes (is created, changed, moved or
 * deleted): a deferred trigger adds one at the commit of each transaction that changed them (migration
 * 0046). The bare apps lists (`no_embed=true`) keep their answers under the versions of the environments
 * they cover, so an unchanged list is sent again without being read, serialized and compressed again, and
 * a changed one is never served from before the change.
 */
export const appListVersions = pgTable('app_list_versions', {
  environmentId: bigint('environment_id', { mode: 'number' })
    .primaryKey()
    .references(() => environments.id, { onDelete: 'cascade' }),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
