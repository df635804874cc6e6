import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { serverSecrets } from '../../db/schema.ts';

/** The JWT signing key: BERTH_JWT_SECRET when given, else generated once and shared through the database. */
export async function loadSigningKey(db: Db, configured: string | undefined): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  await db
    .insert(serverSecrets)
    .values({ name: 'jwt_signing_key', value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, 'jwt_signing_key'));
  if (!row) throw new Error('Could not load the JWT signing key');
  return new TextEncoder().encode(row.value);
}
