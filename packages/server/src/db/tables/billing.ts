import {
  type AnyPgColumn,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { organizations } from './organization.ts';

/**
 * An organization's billing detail (contract §4.2 billing_detail): one per organization, with the
 * organization's id as its own. `paymentSourceId` is the payment method its `payment_method` link names;
 * `customerId` the payment provider's customer (Stripe's `cus_…`; the local provider makes its own).
 */
export const billingDetails = pgTable(
  'billing_details',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** Free-form, as the console writes it: `name` and `billing_address{…}` among whatever else it keeps. */
    organizationDetails: jsonb('organization_details').$type<Record<string, unknown>>().notNull().default({}),
    paymentSourceId: uuid('payment_source_id').references((): AnyPgColumn => paymentSources.id, {
      onDelete: 'set null',
    }),
    /** Which provider `customerId` belongs to (`local`, `stripe`): another provider's customer is not reused. */
    customerProvider: text('customer_provider'),
    customerId: text('customer_id'),
    ...timestamps,
  },
  // The provider's webhooks name a customer: found without reading every organization's detail.
  (table) => [index('billing_details_customer_idx').on(table.customerProvider, table.customerId)],
);

/**
 * A payment source of a billing detail (contract §4.2 stripe_source): a card the provider keeps, or the
 * free source every billing detail carries while BERTH_PAYMENTS=none. Never deleted: a source the
 * provider removes, or one replaced, gets `deactivatedAt`.
 */
export const paymentSources = pgTable(
  'payment_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    billingDetailId: uuid('billing_detail_id')
      .notNull()
      .references(() => billingDetails.id, { onDelete: 'cascade' }),
    /** `none` (the free source), `local` or `stripe`: a source counts only under its own provider. */
    provider: text('provider').notNull(),
    /** The provider's id of the source (Stripe's `card_…`), unique per provider. */
    externalId: text('external_id').notNull(),
    stripeTokenId: text('stripe_token_id').notNull().default(''),
    /** `card`, or `free` for the free source. */
    stripeType: text('stripe_type').notNull(),
    description: text('description').notNull(),
    /** Brand, last four digits and expiry as the provider tells them (never the card number). */
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true, precision: 3 }),
    ...timestamps,
  },
  (table) => [
    index('payment_sources_billing_detail_idx').on(table.billingDetailId),
    uniqueIndex('payment_sources_provider_external_unique').on(table.provider, table.externalId),
  ],
);

/** A trial of a billing detail (contract §4.2 trial): active while now is within its range. */
export const trials = pgTable(
  'trials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    billingDetailId: uuid('billing_detail_id')
      .notNull()
      .references(() => billingDetails.id, { onDelete: 'cascade' }),
    rangeBegin: timestamp('range_begin', { withTimezone: true, precision: 3 }).notNull(),
    rangeEnd: timestamp('range_end', { withTimezone: true, precision: 3 }).notNull(),
    ...timestamps,
  },
  (table) => [index('trials_billing_detail_idx').on(table.billingDetailId)],
);
