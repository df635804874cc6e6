import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { users } from './identity.ts';
import { organizations, roles } from './organizations.ts';

/**
 * An organization's SAML 2.0 identity provider (contract §4.1 saml_configuration): what its metadata
 * said, and this organization's own service-provider key pair (its private key sealed).
 */
export const samlConfigurations = pgTable(
  'saml_configurations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The IdP's entityID, its HTTP-Redirect sign-in and sign-out URLs, and the NameID format it names. */
    entityId: text('entity_id').notNull(),
    signInUrl: text('sign_in_url').notNull(),
    signOutUrl: text('sign_out_url'),
    nameFormat: text('name_format'),
    /** The IdP's signing certificate (PEM): the only key a response is ever checked with. */
    certificate: text('certificate').notNull(),
    /** Where the metadata was fetched from, when it came by URL. */
    metadataUrl: text('metadata_url'),
    /** Vanity name for /sso/:handle and /organizations/:handle/saml/login (unique without regard to case). */
    handle: text('handle'),
    /** Just-in-time provisioning: people the IdP vouches for become members with `defaultRoleId`. */
    jitEnabled: boolean('jit_enabled').notNull().default(false),
    defaultRoleId: uuid('default_role_id').references(() => roles.id, { onDelete: 'set null' }),
    /** This organization's service-provider certificate (PEM) and private key (sealed). */
    spCertificate: text('sp_certificate').notNull(),
    spPrivateKeySealed: text('sp_private_key_sealed').notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('saml_configurations_organization_unique').on(table.organizationId),
    uniqueIndex('saml_configurations_handle_unique').on(sql`lower(${table.handle})`),
  ],
);

/**
 * The AuthnRequests this server sent and not yet answered (node-saml's InResponseTo cache, in the
 * database so any server process takes the answer), with where the browser goes afterwards.
 */
export const samlRequests = pgTable(
  'saml_requests',
  {
    /** The AuthnRequest's ID. */
    id: text('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** What node-saml keeps for the id (the request's instant). */
    value: text('value').notNull(),
    /** The console page failures go to (checked same-origin when the login started). */
    redirectUri: text('redirect_uri').notNull(),
    /** `clitoken` when the login is for a CLI token, with the token's lifetime. */
    landingPage: text('landing_page'),
    durationSeconds: text('duration_seconds'),
    /** sha256 of the secret in the browser's SSO cookie: the answer must come back to that browser. */
    browserBindingHash: text('browser_binding_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [index('saml_requests_expires_idx').on(table.expiresAt)],
);

/** Responses and assertions already used, kept until they would have expired anyway: a replay is refused. */
export const samlUsedMessages = pgTable(
  'saml_used_messages',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** `response:<ID>` or `assertion:<ID>`. */
    messageId: text('message_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.messageId] }),
    index('saml_used_messages_expires_idx').on(table.expiresAt),
  ],
);

/** Who an IdP's NameID is, per organization: the link made at the first SSO login. */
export const samlIdentities = pgTable(
  'saml_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    nameId: text('name_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('saml_identities_organization_name_id_unique').on(table.organizationId, table.nameId),
    index('saml_identities_user_idx').on(table.userId),
  ],
);
