import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { services } from './apps.ts';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';
import { searchText, trigramIndex } from './search-text.ts';

/** A TLS certificate uploaded for custom HTTPS endpoints (or issued for managed ones), parsed on upload. */
export const certificates = pgTable(
  'certificates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    commonName: text('common_name').notNull().default(''),
    certificateBody: text('certificate_body').notNull(),
    leafCertificate: text('leaf_certificate').notNull(),
    certificateChain: text('certificate_chain').notNull().default(''),
    privateKey: text('private_key').notNull(),
    privateKeyAlgorithm: text('private_key_algorithm').notNull().default(''),
    notBefore: timestamp('not_before', { withTimezone: true, precision: 3 }).notNull(),
    notAfter: timestamp('not_after', { withTimezone: true, precision: 3 }).notNull(),
    issuerOrganization: text('issuer_organization').notNull().default(''),
    issuerCommonName: text('issuer_common_name').notNull().default(''),
    issuerCountry: text('issuer_country').notNull().default(''),
    issuerWebsite: text('issuer_website').notNull().default(''),
    subjectCountry: text('subject_country').notNull().default(''),
    subjectState: text('subject_state').notNull().default(''),
    subjectLocale: text('subject_locale').notNull().default(''),
    subjectOrganization: text('subject_organization').notNull().default(''),
    subjectAlternativeNames: jsonb('subject_alternative_names').$type<string[]>().notNull().default([]),
    sha256Fingerprint: text('sha256_fingerprint').notNull(),
    acme: boolean('acme').notNull().default(false),
    trusted: boolean('trusted').notNull().default(false),
    selfSigned: boolean('self_signed').notNull().default(false),
    ...timestamps,
  },
  (table) => [index('certificates_env_idx').on(table.environmentId)],
);

/** Endpoints ("vhosts" on the wire): how traffic reaches a service. Removed once deprovisioned. */
export const vhosts = pgTable(
  'vhosts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    // Deleting a certificate in use is refused by the API; the reference never blocks cascades.
    certificateId: integer('certificate_id').references(() => certificates.id, { onDelete: 'set null' }),
    type: text('type').notNull().default('http'),
    platform: text('platform').notNull().default('elb'),
    status: text('status').notNull().default('pending'),
    acme: boolean('acme').notNull().default(false),
    acmeStatus: text('acme_status').notNull().default(''),
    acmeConfiguration: jsonb('acme_configuration').$type<AcmeConfiguration>(),
    acmeDnsChallengeHost: text('acme_dns_challenge_host').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    internal: boolean('internal').notNull().default(false),
    shared: boolean('shared').notNull().default(false),
    ipWhitelist: jsonb('ip_whitelist').$type<string[]>().notNull().default([]),
    containerPort: integer('container_port'),
    containerPorts: jsonb('container_ports').$type<number[]>().notNull().default([]),
    tokenHeader: text('token_header'),
    loadBalancingAlgorithm: text('load_balancing_algorithm').notNull().default('round_robin'),
    userDomain: text('user_domain').notNull().default(''),
    virtualDomain: text('virtual_domain').notNull().default(''),
    /**
     * A default endpoint's name on its stack's default domain (`shop-production`), null for the others.
     * Every organization's default endpoints share the installation's domain, so a name is unique
     * across all of them (endpoints made before names were readable keep `app-<id>`).
     */
    defaultName: text('default_name'),
    externalHost: text('external_host'),
    /** Where the endpoint answers when not on 80 and 443 (the docker runtime's edge); null: those. */
    externalPorts: jsonb('external_ports').$type<{ http: number | null; https: number | null }>(),
    internalHost: text('internal_host'),
    dockerName: text('docker_name'),
    ...timestamps,
  },
  (table) => [
    index('vhosts_env_idx').on(table.environmentId),
    index('vhosts_service_idx').on(table.serviceId),
    index('vhosts_certificate_idx').on(table.certificateId),
    uniqueIndex('vhosts_default_name_unique').on(table.defaultName),
    // Global search (issue 38): by any of its host names, per environment.
    trigramIndex(
      index('vhosts_env_search_trgm_idx'),
      table.environmentId,
      searchText(table.userDomain, table.virtualDomain, table.externalHost, table.defaultName),
    ),
  ],
);

/** The DNS records a managed HTTPS endpoint needs before its certificate can be issued (contract §4.3). */
export interface AcmeConfiguration {
  names: string[];
  challenges: { method: string; from: { name: string }; to: { name: string; legacy: boolean }[] }[];
}
