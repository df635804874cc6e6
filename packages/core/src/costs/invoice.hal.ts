import { z } from 'zod';
import { halId, halLinks } from '../hal/hal.ts';

/** Issue 37: one line of an invoice: a meter's use, what the plan included of it and what the rest cost. */
export const invoiceLineBody = z.strictObject({
  description: z.string(),
  used: z.number(),
  included: z.number(),
  unit: z.string(),
  amount_cents: z.number().int(),
});

/** Issue 37: an organization's invoice for a closed period (billing family), amounts in whole cents. */
export const invoiceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('invoice'),
    period_start: z.string(),
    period_end: z.string(),
    plan_name: z.string(),
    discount_percent: z.number().int(),
    lines: z.array(invoiceLineBody),
    plan_cents: z.number().int(),
    usage_cents: z.number().int(),
    included_cents: z.number().int(),
    discount_cents: z.number().int(),
    total_cents: z.number().int(),
    created_at: z.string(),
    _links: halLinks(['billing_detail']),
  })
  .meta({ id: 'Invoice' });
export type InvoiceResource = z.infer<typeof invoiceResource>;

/**
 * `GET /billing_details/:id/invoices`: a page of the organization's invoices, newest first (contract §1.4
 * paging: `next` and `prev` while there are more), with `portal`: the printable page the Invoices screen
 * frames (a signed link, good for an hour; absent where no portal is served, and the screen then says it
 * is not configured).
 */
export const invoiceCollection = z
  .strictObject({
    _embedded: z.strictObject({ invoices: z.array(invoiceResource) }),
    _links: halLinks(['self'], ['next', 'prev', 'portal']),
    current_page: z.number().int(),
    per_page: z.number().int(),
    total_count: z.number().int(),
  })
  .meta({ id: 'InvoiceCollection' });
export type InvoiceCollection = z.infer<typeof invoiceCollection>;
