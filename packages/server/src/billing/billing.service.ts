import {
  actionDenial,
  billingDetailCreateInput,
  billingDetailUpdateInput,
  billingMessages,
  canAct,
  lastUrlSegment,
  MAX_ORGANIZATION_DETAILS_LENGTH,
  stripeSourceCreateInput,
} from '@berth/core';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { accessOf, assertUsable, type CallerRef } from '../auth/caller-access.ts';
import type { Db, DbOrTx } from '../db/client.ts';
import { billingDetails, organizations, paymentSources, trials } from '../db/schema.ts';
import { type Page, selectPage } from '../db/select-page.ts';
import { ApiError, forbidden, notFound, parseBody, unprocessable } from '../http/errors.ts';
import type { Paging } from '../http/hal.ts';
import { isUuid } from '../http/ids.ts';
import {
  type PaymentEvent,
  type PaymentProvider,
  PaymentProviderUnavailable,
  PaymentRefused,
  type PaymentsMode,
  type ProviderCard,
} from './payments/payment-provider.ts';

export type BillingDetailRow = typeof billingDetails.$inferSelect;
export type PaymentSourceRow = typeof paymentSources.$inferSelect;
export type TrialRow = typeof trials.$inferSelect;

/** A billing detail as its caller may see it: the address only for those with billing access. */
export interface BillingDetailView {
  row: BillingDetailRow;
  /** The source its `payment_method` link names, or null (then the console sends every page to Plans). */
  paymentMethodId: string | null;
  organizationDetails: Record<string, unknown> | null;
}

/** A payment source as its caller may see it: what the card is only for those with billing access. */
export interface PaymentSourceView {
  row: PaymentSourceRow;
  detailed: boolean;
}

export interface BillingDeps {
  db: Db;
  /** BERTH_PAYMENTS. */
  mode: PaymentsMode;
  /** The provider of `local` and `stripe`; null with `none`. */
  provider: PaymentProvider | null;
  /** BERTH_TRIAL_DAYS: the trial a new organization gets while payments are on (0: none). */
  trialDays: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The free source of BERTH_PAYMENTS=none, one per billing detail. */
const FREE_SOURCE = { provider: 'none', stripeType: 'free', description: 'Free (payments are off)' } as const;

/**
 * Billing details, payment sources and trials (spec 1 §6/§7, contract §4.2/§5.5) over the payment
 * provider BERTH_PAYMENTS chose. Every organization has one billing detail, made the first time it is
 * needed, with the organization's id. Members read it (the console's payment-method guard runs for all of
 * them); its address and its cards are for the Account Owner and the Billing Only Owner, who alone change it.
 */
export function createBilling(deps: BillingDeps) {
  const { db, mode, provider, trialDays } = deps;
  /** The provider a source must come from to count as a payment method now. */
  const currentProvider = mode;

  /** The organization's billing detail, made (with its trial, or its free source) when it has none. */
  async function ensureDetail(organizationId: string): Promise<BillingDetailRow | null> {
    const [existing] = await db.select().from(billingDetails).where(eq(billingDetails.id, organizationId));
    let row = existing;
    if (!row) {
      const [organization] = await db
        .select({ id: organizations.id, createdAt: organizations.createdAt })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      if (!organization) return null;
      row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(billingDetails)
          .values({ id: organizationId })
          .onConflictDoNothing()
          .returning();
        // Another request made it first: theirs, with the trial they gave it.
        if (!made) {
          const [theirs] = await tx
            .select()
            .from(billingDetails)
            .where(eq(billingDetails.id, organizationId));
          if (!theirs) throw new Error('Billing detail vanished while being made');
          return theirs;
        }
        if (mode !== 'none' && trialDays > 0) {
          // The trial runs from the organization's start, however late its billing detail is made.
          await tx.insert(trials).values({
            billingDetailId: organizationId,
            rangeBegin: organization.createdAt,
            rangeEnd: new Date(organization.createdAt.getTime() + trialDays * DAY_MS),
          });
        }
        return made;
      });
    }
    if (mode === 'none') await ensureFreeSource(row.id);
    return row;
  }

  async function ensureFreeSource(billingDetailId: string): Promise<void> {
    // Read first: every page load asks, and only the first needs to write.
    const [free] = await db
      .select({ id: paymentSources.id })
      .from(paymentSources)
      .where(
        and(
          eq(paymentSources.billingDetailId, billingDetailId),
          eq(paymentSources.provider, FREE_SOURCE.provider),
        ),
      );
    if (free) return;
    await db
      .insert(paymentSources)
      .values({
        billingDetailId,
        provider: FREE_SOURCE.provider,
        externalId: `free_${billingDetailId}`,
        stripeType: FREE_SOURCE.stripeType,
        description: FREE_SOURCE.description,
      })
      .onConflictDoNothing();
  }

  /** The source a billing detail's `payment_method` names now: one of the current provider's, active. */
  async function paymentMethodOf(row: BillingDetailRow, on: DbOrTx = db): Promise<string | null> {
    if (mode === 'none') {
      const [free] = await on
        .select({ id: paymentSources.id })
        .from(paymentSources)
        .where(
          and(
            eq(paymentSources.billingDetailId, row.id),
            eq(paymentSources.provider, FREE_SOURCE.provider),
            isNull(paymentSources.deactivatedAt),
          ),
        );
      return free?.id ?? null;
    }
    if (!row.paymentSourceId) return null;
    const [source] = await on
      .select({ id: paymentSources.id })
      .from(paymentSources)
      .where(
        and(
          eq(paymentSources.id, row.paymentSourceId),
          eq(paymentSources.provider, currentProvider),
          isNull(paymentSources.deactivatedAt),
        ),
      );
    return source?.id ?? null;
  }

  /** The caller's standing in the organization: 404 to strangers (403 when SSO stops this token). */
  async function standing(ref: CallerRef, organizationId: string): Promise<{ billing: boolean }> {
    const caller = await accessOf(db, ref);
    if (isUuid(organizationId)) assertUsable(caller, organizationId);
    const actor = isUuid(organizationId) ? caller.actors.get(organizationId) : undefined;
    if (!actor || !canAct(actor, 'billing.read')) throw notFound('Billing detail');
    return { billing: canAct(actor, 'billing.manage') };
  }

  /** 404 to strangers, 403 to members without billing access. */
  async function asBillingOwner(ref: CallerRef, organizationId: string): Promise<void> {
    const caller = await accessOf(db, ref);
    if (isUuid(organizationId)) assertUsable(caller, organizationId);
    const actor = isUuid(organizationId) ? caller.actors.get(organizationId) : undefined;
    if (!actor) throw notFound('Billing detail');
    const denial = actionDenial(actor, 'billing.manage');
    if (denial !== null) throw forbidden(denial);
  }

  async function detailOrNotFound(organizationId: string): Promise<BillingDetailRow> {
    const row = await ensureDetail(organizationId);
    if (!row) throw notFound('Billing detail');
    return row;
  }

  async function view(row: BillingDetailRow, billing: boolean): Promise<BillingDetailView> {
    return {
      row,
      paymentMethodId: await paymentMethodOf(row),
      organizationDetails: billing ? row.organizationDetails : null,
    };
  }

  /**
   * Keeps the console's other keys: only the keys sent change (contract §4.2 "keeps existing keys"). 422
   * when the whole would be over its bound: the details are kept as sent, so each change could add more.
   */
  function mergedDetails(row: BillingDetailRow, sent: Record<string, unknown>) {
    const merged = { ...row.organizationDetails, ...sent };
    if (JSON.stringify(merged).length > MAX_ORGANIZATION_DETAILS_LENGTH) {
      throw unprocessable(billingMessages.detailsTooLong, {
        organization_details_json: [billingMessages.detailsTooLong],
      });
    }
    return merged;
  }

  /**
   * Changes a billing detail from its row as it is now, locked: two changes at once each keep the
   * other's keys of the details instead of the later overwriting the earlier.
   */
  function changeDetail(
    id: string,
    change: (locked: BillingDetailRow) => Partial<typeof billingDetails.$inferInsert>,
  ): Promise<BillingDetailRow | undefined> {
    return db.transaction(async (tx) => {
      const [locked] = await tx.select().from(billingDetails).where(eq(billingDetails.id, id)).for('update');
      if (!locked) return undefined;
      const [updated] = await tx
        .update(billingDetails)
        .set({ ...change(locked), updatedAt: new Date() })
        .where(eq(billingDetails.id, id))
        .returning();
      return updated;
    });
  }

  async function sourceRow(id: string): Promise<PaymentSourceRow | undefined> {
    if (!isUuid(id)) return undefined;
    const [row] = await db.select().from(paymentSources).where(eq(paymentSources.id, id));
    return row;
  }

  /** Keeps a card the provider accepted, and makes it the payment method when there is none yet. */
  async function keepCard(
    row: BillingDetailRow,
    card: ProviderCard,
    token: string,
  ): Promise<PaymentSourceRow> {
    return db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(billingDetails)
        .where(eq(billingDetails.id, row.id))
        .for('update');
      if (!locked) throw notFound('Billing detail');
      const [source] = await tx
        .insert(paymentSources)
        .values({
          billingDetailId: row.id,
          provider: currentProvider,
          externalId: card.externalId,
          stripeTokenId: token,
          stripeType: 'card',
          description: card.description,
          metadata: card.metadata,
        })
        .returning();
      if (!source) throw new Error('Payment source insert returned nothing');
      if ((await paymentMethodOf(locked, tx)) === null) {
        await tx
          .update(billingDetails)
          .set({ paymentSourceId: source.id, updatedAt: new Date() })
          .where(eq(billingDetails.id, row.id));
      }
      return source;
    });
  }

  /** The provider's customer of a billing detail, made the first time a card is added. */
  async function customerOf(row: BillingDetailRow, active: PaymentProvider): Promise<string> {
    if (row.customerId && row.customerProvider === active.mode) return row.customerId;
    const [organization] = await db
      .select({ id: organizations.id, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, row.id));
    if (!organization) throw notFound('Billing detail');
    // Keyed by the billing detail's state: requests racing from it share one customer, and once a
    // deleted customer is cleared (which changes it) the next card gets a new one.
    const customerId = await active.createCustomer(organization, `${row.id}-${row.updatedAt.getTime()}`);
    await db
      .update(billingDetails)
      .set({ customerId, customerProvider: active.mode, updatedAt: new Date() })
      .where(eq(billingDetails.id, row.id));
    return customerId;
  }

  return {
    mode,

    /**
     * Whether the organization has a payment method now (plans: "You must add a payment method before
     * changing your plan."). Always with BERTH_PAYMENTS=none (its free source).
     */
    async hasPaymentMethod(organizationId: string): Promise<boolean> {
      if (mode === 'none') return true;
      if (!isUuid(organizationId)) return false;
      const [row] = await db.select().from(billingDetails).where(eq(billingDetails.id, organizationId));
      return row ? (await paymentMethodOf(row)) !== null : false;
    },

    async get(ref: CallerRef, id: string): Promise<BillingDetailView> {
      const { billing } = await standing(ref, id);
      return view(await detailOrNotFound(id), billing);
    },

    /** `POST /billing_details`: the organization's detail (made if need be) with the details sent. */
    async create(ref: CallerRef, body: unknown): Promise<BillingDetailView> {
      // The organization is named in the body, so the body is read first.
      const input = parseBody(billingDetailCreateInput, body);
      await asBillingOwner(ref, input.id);
      const row = await detailOrNotFound(input.id);
      const sent = input.organization_details_json;
      if (!sent) return view(row, true);
      const updated = await changeDetail(row.id, (locked) => ({
        organizationDetails: mergedDetails(locked, sent),
      }));
      return view(updated ?? row, true);
    },

    /** `PATCH /billing_details/:id`: the payment method (one of its active sources) and the details. */
    async update(ref: CallerRef, id: string, body: unknown): Promise<BillingDetailView> {
      await asBillingOwner(ref, id);
      const input = parseBody(billingDetailUpdateInput, body);
      const row = await detailOrNotFound(id);
      const changes: Partial<typeof billingDetails.$inferInsert> = { updatedAt: new Date() };
      if (input.payment_method) {
        const source = await sourceRow(lastUrlSegment(input.payment_method));
        const usable =
          source &&
          source.billingDetailId === row.id &&
          source.deactivatedAt === null &&
          source.provider === currentProvider;
        if (!usable) throw unprocessable(billingMessages.paymentMethodNotFound);
        changes.paymentSourceId = source.id;
      }
      const sent = input.organization_details_json;
      const updated = await changeDetail(row.id, (locked) => ({
        ...changes,
        ...(sent ? { organizationDetails: mergedDetails(locked, sent) } : {}),
      }));
      return view(updated ?? row, true);
    },

    /** One page of a billing detail's payment sources, oldest first (a card added is never deleted). */
    async listSources(ref: CallerRef, id: string, paging: Paging | null): Promise<Page<PaymentSourceView>> {
      const { billing } = await standing(ref, id);
      const row = await detailOrNotFound(id);
      const { items, paging: window } = await selectPage(db, paymentSources, {
        where: eq(paymentSources.billingDetailId, row.id),
        orderBy: [asc(paymentSources.createdAt), asc(paymentSources.id)],
        paging,
      });
      return { items: items.map((source) => ({ row: source, detailed: billing })), paging: window };
    },

    async getSource(ref: CallerRef, id: string): Promise<PaymentSourceView> {
      const row = await sourceRow(id);
      if (!row) throw notFound('Payment source');
      const { billing } = await standing(ref, row.billingDetailId).catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 404 ? notFound('Payment source') : error;
      });
      return { row, detailed: billing };
    },

    /**
     * `POST /billing_details/:id/stripe_sources`: the card behind a card token, kept by the provider and
     * here. A card the provider refuses is 402 with its message (spec 1 §8), and nothing is kept.
     */
    async addSource(ref: CallerRef, id: string, body: unknown): Promise<PaymentSourceView> {
      await asBillingOwner(ref, id);
      const { stripe_token_id: token } = parseBody(stripeSourceCreateInput, body);
      const row = await detailOrNotFound(id);
      if (!provider) throw unprocessable(billingMessages.paymentsOff);
      try {
        const customerId = await customerOf(row, provider);
        const card = await provider.attachCard(customerId, token);
        return { row: await keepCard(row, card, token), detailed: true };
      } catch (error) {
        if (error instanceof PaymentRefused) throw new ApiError(error.status, error.code, error.message);
        if (error instanceof PaymentProviderUnavailable) {
          throw new ApiError(502, 'payment_provider_unavailable', billingMessages.providerUnavailable);
        }
        throw error;
      }
    },

    async listTrials(ref: CallerRef, id: string, paging: Paging | null): Promise<Page<TrialRow>> {
      await standing(ref, id);
      const row = await detailOrNotFound(id);
      return selectPage(db, trials, {
        where: eq(trials.billingDetailId, row.id),
        orderBy: [asc(trials.rangeBegin), asc(trials.id)],
        paging,
      });
    },

    /** One trial (the target of its `self` link), for the members of its organization. */
    async getTrial(ref: CallerRef, id: string): Promise<TrialRow> {
      const [row] = isUuid(id) ? await db.select().from(trials).where(eq(trials.id, id)) : [];
      if (!row) throw notFound('Trial');
      await standing(ref, row.billingDetailId).catch((error: unknown) => {
        throw error instanceof ApiError && error.status === 404 ? notFound('Trial') : error;
      });
      return row;
    },

    /** A verified provider event: cards it removed stop counting, cards it changed are described anew. */
    async applyEvent(event: PaymentEvent): Promise<void> {
      const now = new Date();
      switch (event.kind) {
        case 'card_removed':
          await db
            .update(paymentSources)
            .set({ deactivatedAt: now, updatedAt: now })
            .where(
              and(
                eq(paymentSources.provider, 'stripe'),
                eq(paymentSources.externalId, event.externalId),
                isNull(paymentSources.deactivatedAt),
              ),
            );
          return;
        case 'card_updated':
          await db
            .update(paymentSources)
            .set({ description: event.card.description, metadata: event.card.metadata, updatedAt: now })
            .where(
              and(
                eq(paymentSources.provider, 'stripe'),
                eq(paymentSources.externalId, event.card.externalId),
              ),
            );
          return;
        case 'customer_removed': {
          const owners = await db
            .select({ id: billingDetails.id })
            .from(billingDetails)
            .where(
              and(
                eq(billingDetails.customerProvider, 'stripe'),
                eq(billingDetails.customerId, event.customerId),
              ),
            );
          for (const owner of owners) {
            await db
              .update(paymentSources)
              .set({ deactivatedAt: now, updatedAt: now })
              .where(
                and(
                  eq(paymentSources.billingDetailId, owner.id),
                  eq(paymentSources.provider, 'stripe'),
                  isNull(paymentSources.deactivatedAt),
                ),
              );
            // Its next card is a new customer's: the deleted one takes no more sources.
            await db
              .update(billingDetails)
              .set({ customerId: null, customerProvider: null, updatedAt: now })
              .where(eq(billingDetails.id, owner.id));
          }
          return;
        }
        case 'other':
          return;
      }
    },
  };
}
export type BillingService = ReturnType<typeof createBilling>;
