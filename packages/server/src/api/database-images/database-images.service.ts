import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { databaseImages } from '../../db/schema.ts';
import { DATABASE_IMAGE_CATALOG, ENGINE_NAMES, pitrSupported } from './database-images.catalog.ts';
import type { DatabaseImageRow } from './database-images.hal.ts';

/**
 * Makes the stored catalog match DATABASE_IMAGE_CATALOG (run at every start; idempotent). Rows are
 * updated only when something changed, so restarts leave `updated_at` alone. Images dropped from the
 * catalog stay stored (databases may point at them) and are left as they are.
 */
export async function ensureDatabaseImages(db: Db): Promise<void> {
  const rows = DATABASE_IMAGE_CATALOG.map((image) => ({
    type: image.type,
    version: image.version,
    description: `${ENGINE_NAMES[image.type] ?? image.type} ${image.version}`,
    dockerRepo: `berth/${image.type}:${image.version}`,
    isDefault: image.isDefault ?? false,
    discoverable: true,
    visible: true,
    eolAt: image.eolAt ? new Date(`${image.eolAt}T00:00:00.000Z`) : null,
    pitrSupported: pitrSupported(image),
  }));
  await db
    .insert(databaseImages)
    .values(rows)
    .onConflictDoUpdate({
      target: [databaseImages.type, databaseImages.version],
      set: {
        description: sql`excluded.description`,
        dockerRepo: sql`excluded.docker_repo`,
        isDefault: sql`excluded.is_default`,
        eolAt: sql`excluded.eol_at`,
        pitrSupported: sql`excluded.pitr_supported`,
        updatedAt: sql`now()`,
      },
      setWhere: sql`(${databaseImages.description}, ${databaseImages.dockerRepo}, ${databaseImages.isDefault}, ${databaseImages.eolAt}, ${databaseImages.pitrSupported})
        IS DISTINCT FROM (excluded.description, excluded.docker_repo, excluded.is_default, excluded.eol_at, excluded.pitr_supported)`,
    });
}

/** The whole catalog: engines in catalog order, newest version first within each. */
export async function listDatabaseImages(db: Db): Promise<DatabaseImageRow[]> {
  const rows = await db.select().from(databaseImages).orderBy(asc(databaseImages.id));
  const engineOrder = new Map(DATABASE_IMAGE_CATALOG.map((image, index) => [image.type, index]));
  const byVersion = new Intl.Collator('en', { numeric: true });
  return rows.sort(
    (a, b) =>
      (engineOrder.get(a.type) ?? Number.MAX_SAFE_INTEGER) -
        (engineOrder.get(b.type) ?? Number.MAX_SAFE_INTEGER) ||
      a.type.localeCompare(b.type) ||
      byVersion.compare(b.version, a.version),
  );
}

export async function getDatabaseImage(db: Db, id: number | null): Promise<DatabaseImageRow | undefined> {
  if (id === null) return undefined;
  const [row] = await db.select().from(databaseImages).where(eq(databaseImages.id, id));
  return row;
}
