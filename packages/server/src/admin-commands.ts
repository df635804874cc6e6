import { eq, sql } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { users } from './db/schema.ts';

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

Commands:
  make-superuser EMAIL              let the user impersonate others, with write access if they choose
  make-superuser EMAIL --read-only  let the user impersonate others, read-only only
  revoke-superuser EMAIL            take both rights away again`;

export class AdminUsageError extends Error {}

/**
 * The operator's commands (`npm run admin -- …`), run against the server's database. Superusers exist
 * only through them: no API call grants the flag. Answers the line to print.
 */
export async function runAdminCommand(db: Db, argv: readonly string[]): Promise<string> {
  const [command, email, ...flags] = argv;
  if (!command || !email || email.startsWith('-')) throw new AdminUsageError(ADMIN_USAGE);
  const readOnly = flags.includes('--read-only');
  const unknown = flags.filter((flag) => flag !== '--read-only');
  if (unknown.length > 0) throw new AdminUsageError(`Unknown option ${unknown[0]}\n\n${ADMIN_USAGE}`);
  let values: { superuser: boolean; readOnlyImpersonate: boolean };
  if (command === 'make-superuser') {
    values = readOnly
      ? { superuser: false, readOnlyImpersonate: true }
      : { superuser: true, readOnlyImpersonate: false };
  } else if (command === 'revoke-superuser' && !readOnly) {
    values = { superuser: false, readOnlyImpersonate: false };
  } else {
    throw new AdminUsageError(`Unknown command ${command}\n\n${ADMIN_USAGE}`);
  }
  const [user] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ email: users.email });
  if (!user) throw new AdminUsageError(`No user with the email address ${email}`);
  if (values.superuser) return `${user.email} is now a superuser (may impersonate, with write access).`;
  if (values.readOnlyImpersonate) return `${user.email} may now impersonate other users, read-only.`;
  return `${user.email} is no longer a superuser and may not impersonate.`;
}
