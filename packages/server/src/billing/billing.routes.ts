import {
  billingDetailCreateInput,
  billingDetailResource,
  billingDetailUpdateInput,
  stripeSourceCollection,
  stripeSourceCreateInput,
  stripeSourceResource,
  trialCollection,
  trialResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { z } from 'zod';
import type { CallerAccess, Callers } from '../auth/caller-access.ts';
import type { FamilyUrls } from '../config.ts';
import { ApiError } from '../http/errors.ts';
import { collection, pagingFrom } from '../http/hal.ts';
import { bodyCheckedByService, idRoute, pagedQuery, route } from '../http/route-schemas.ts';
import { billingDetailHref, toBillingDetailHal, toStripeSourceHal, toTrialHal } from './billing.hal.ts';
import type { BillingDetailView, BillingService } from './billing.service.ts';
import type { StripePaymentProvider } from './payments/stripe-provider.ts';

export interface BillingRoutesDeps {
  urls: FamilyUrls;
  callers: Callers;
  billing: BillingService;
  /** With BERTH_PAYMENTS=stripe: the provider whose webhook deliveries `/stripe/webhooks` takes. */
  stripe: StripePaymentProvider | null;
  /**
   * The organization's invoice portal for this caller (the page the Invoices screen frames), when
   * invoices are served; asked only for callers with billing access.
   */
  invoicePortalUrl?: (caller: CallerAccess, organizationId: string) => string | null;
}

const webhookAnswer = z.strictObject({ received: z.literal(true) }).meta({ id: 'StripeWebhookReceipt' });

/**
 * The billing family (contract §4.2, §5.5): billing details, their payment sources and trials. Members
 * of the organization read them (the console's payment-method guard and trial notice run for everyone);
 * the Account Owner and the Billing Only Owner change them (spec 1 §6 billing access).
 */
export async function billingRoutes(fastify: FastifyInstance, deps: BillingRoutesDeps) {
  const { urls, callers, billing, stripe } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Billing'];
  const portal = (caller: CallerAccess, view: BillingDetailView) =>
    view.organizationDetails === null ? null : (deps.invoicePortalUrl?.(caller, view.row.id) ?? null);

  app.get(
    '/billing_details/:id',
    idRoute(tags, "An organization's billing detail (its members; the address for billing owners)", {
      200: billingDetailResource,
    }),
    async (request) => {
      const caller = await callers.require(request);
      const view = await billing.get(caller, request.params.id);
      return toBillingDetailHal(view, urls, portal(caller, view));
    },
  );

  app.post(
    '/billing_details',
    route(
      tags,
      "Make (or name) an organization's billing detail (Account and Billing Only Owners)",
      { 201: billingDetailResource },
      {
        body: bodyCheckedByService(
          billingDetailCreateInput,
          '`id`: the organization; `organization_details_json`',
        ),
      },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const view = await billing.create(caller, request.body);
      return reply.code(201).send(toBillingDetailHal(view, urls, portal(caller, view)));
    },
  );

  app.patch(
    '/billing_details/:id',
    idRoute(
      tags,
      'Set the payment method and the billing address (Account and Billing Only Owners)',
      { 200: billingDetailResource },
      {
        body: bodyCheckedByService(
          billingDetailUpdateInput,
          '`payment_method`: a stripe source URL of this billing detail; `organization_details_json`',
        ),
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const view = await billing.update(caller, request.params.id, request.body);
      return toBillingDetailHal(view, urls, portal(caller, view));
    },
  );

  app.get(
    '/billing_details/:id/stripe_sources',
    idRoute(
      tags,
      "A billing detail's payment sources (the card itself for billing owners)",
      { 200: stripeSourceCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await billing.listSources(
        caller,
        request.params.id,
        pagingFrom(request.query),
      );
      return collection(
        'stripe_sources',
        `${billingDetailHref(urls, request.params.id)}/stripe_sources`,
        items.map((source) => toStripeSourceHal(source, urls)),
        paging,
      );
    },
  );

  app.post(
    '/billing_details/:id/stripe_sources',
    idRoute(
      tags,
      "Add a card from a card token made by Stripe.js (Account and Billing Only Owners); 402 with the card provider's message when refused",
      { 201: stripeSourceResource },
      { body: bodyCheckedByService(stripeSourceCreateInput, '`stripe_token_id`: the card token') },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const source = await billing.addSource(caller, request.params.id, request.body);
      return reply.code(201).send(toStripeSourceHal(source, urls));
    },
  );

  app.get(
    '/stripe_sources/:id',
    idRoute(tags, "One payment source (the target of a billing detail's payment_method link)", {
      200: stripeSourceResource,
    }),
    async (request) => {
      const caller = await callers.require(request);
      return toStripeSourceHal(await billing.getSource(caller, request.params.id), urls);
    },
  );

  app.get(
    '/billing_details/:id/trials',
    idRoute(
      tags,
      "A billing detail's trials (active while now is within their range)",
      { 200: trialCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await billing.listTrials(
        caller,
        request.params.id,
        pagingFrom(request.query),
      );
      return collection(
        'trials',
        `${billingDetailHref(urls, request.params.id)}/trials`,
        items.map((row) => toTrialHal(row, urls)),
        paging,
      );
    },
  );

  app.get(
    '/trials/:id',
    idRoute(tags, "One trial (the target of a trial's self link)", { 200: trialResource }),
    async (request) => {
      const caller = await callers.require(request);
      return toTrialHal(await billing.getTrial(caller, request.params.id), urls);
    },
  );

  if (stripe) await stripeWebhookRoutes(fastify, stripe, billing);
}

/**
 * Stripe's webhook deliveries (BERTH_PAYMENTS=stripe). Stripe signs the exact bytes it sends, so this
 * route alone reads its body raw; an event is applied only once its signature holds.
 */
async function stripeWebhookRoutes(
  fastify: FastifyInstance,
  stripe: StripePaymentProvider,
  billing: BillingService,
) {
  await fastify.register(async (hooks) => {
    hooks.removeContentTypeParser(['application/json']);
    hooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );
    const app = hooks.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/stripe/webhooks',
      {
        config: { public: true },
        ...route(['Billing'], 'Stripe webhook deliveries, checked by their Stripe-Signature', {
          200: webhookAnswer,
        }),
      },
      async (request) => {
        const signature = request.headers['stripe-signature'];
        const payload = request.body;
        if (typeof signature !== 'string' || signature.length > 4096 || !Buffer.isBuffer(payload)) {
          throw new ApiError(400, 'bad_signature', 'A Stripe-Signature header and a JSON body are required');
        }
        let event: ReturnType<StripePaymentProvider['webhookEvent']>;
        try {
          event = stripe.webhookEvent(payload, signature);
        } catch (error) {
          if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
            throw new ApiError(400, 'bad_signature', 'The Stripe-Signature does not match this delivery');
          }
          // Signed, but not an event (its JSON does not parse): nothing to apply.
          if (error instanceof SyntaxError)
            throw new ApiError(400, 'bad_request', 'The delivery is not a JSON event');
          throw error;
        }
        await billing.applyEvent(event);
        return { received: true } as const;
      },
    );
  });
}
