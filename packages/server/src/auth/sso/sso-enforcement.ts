import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { samlConfigurations } from '../../db/schema.ts';

/** Whether the organization has a SAML configuration: enforcing SSO without one would lock members out. */
export async function hasSamlConfiguration(db: DbOrTx, organizationId: string): Promise<boolean> {
  const [found] = await db
    .select({ id: samlConfigurations.id })
    .from(samlConfigurations)
    .where(eq(samlConfigurations.organizationId, organizationId))
    .limit(1);
  return found !== undefined;
}
