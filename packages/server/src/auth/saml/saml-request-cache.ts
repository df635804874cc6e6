import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { samlRequests, samlUsedMessages } from '../../db/schema.ts';

/** How long an AuthnRequest waits for its answer: the IdP's login page may take the user a while. */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;

/** What a login keeps beside its request id, for the answer to find. */
export interface PendingLogin {
  redirectUri: string;
  landingPage: string | null;
  durationSeconds: number | null;
  browserBindingHash: string;
}

/**
 * node-saml's cache of outstanding request ids (its `validateInResponseTo`), kept in the database so the
 * answer may reach any server process, and kept to one organization: a request id of one organization's
 * login is never an answer another's IdP may give. Only a login (`pending`) saves.
 */
export function samlRequestCache(db: Db, organizationId: string, pending?: PendingLogin): CacheProvider {
  const ofOrganization = (key: string) =>
    and(eq(samlRequests.id, key), eq(samlRequests.organizationId, organizationId));
  return {
    async saveAsync(key: string, value: string): Promise<CacheItem | null> {
      if (!pending) throw new Error('Only a login records SAML requests');
      const createdAt = Date.now();
      await db.insert(samlRequests).values({
        id: key,
        organizationId,
        value,
        redirectUri: pending.redirectUri,
        landingPage: pending.landingPage,
        durationSeconds: pending.durationSeconds === null ? null : String(pending.durationSeconds),
        browserBindingHash: pending.browserBindingHash,
        expiresAt: new Date(createdAt + SAML_REQUEST_TTL_MS),
      });
      return { value, createdAt };
    },
    async getAsync(key: string): Promise<string | null> {
      const [row] = await db
        .select({ value: samlRequests.value })
        .from(samlRequests)
        .where(and(ofOrganization(key), gt(samlRequests.expiresAt, new Date())));
      return row?.value ?? null;
    },
    async removeAsync(key: string | null): Promise<string | null> {
      if (!key) return null;
      const [row] = await db
        .delete(samlRequests)
        .where(ofOrganization(key))
        .returning({ value: samlRequests.value });
      return row?.value ?? null;
    },
  };
}

/** Requests never answered and used messages past their lifetime go (each login sweeps). */
export async function sweepExpiredSaml(db: Db): Promise<void> {
  const now = new Date();
  await db.delete(samlRequests).where(lt(samlRequests.expiresAt, now));
  await db.delete(samlUsedMessages).where(lt(samlUsedMessages.expiresAt, now));
}
