import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';

/**
 * A user's SSH public keys (contract §4.1 ssh_key), for git pushes and SSH sessions. The key is stored in
 * its canonical OpenSSH one-line form; one fingerprint appears at most once per user.
 */
export const sshKeys = pgTable(
  'ssh_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    publicKey: text('public_key').notNull(),
    /** `aa:bb:…` (OpenSSH's legacy MD5 form). */
    md5Fingerprint: text('md5_fingerprint').notNull(),
    /** `SHA256:…` (OpenSSH's default form). */
    sha256Fingerprint: text('sha256_fingerprint').notNull(),
    ...timestamps,
  },
  (table) => [
    index('ssh_keys_user_idx').on(table.userId),
    uniqueIndex('ssh_keys_user_fingerprint_unique').on(table.userId, table.sha256Fingerprint),
  ],
);
