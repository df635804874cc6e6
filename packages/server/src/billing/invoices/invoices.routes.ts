import { createHash } from 'node:crypto';
import { formatCents, type InvoiceResource, invoiceCollection } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CallerAccess, Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { notFound } from '../../http/errors.ts';
import { collection, iso, pagingFrom } from '../../http/hal.ts';
import { idParams, pagedQuery, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { escapeHtml } from '../../mail/mailer.ts';
import type { Invoice, InvoicesService } from './invoices.service.ts';

/** The portal page's only style, allowed by its hash: readable in the console's frame and on paper. */
const PORTAL_STYLE =
  'body{font:14px system-ui,sans-serif;color:#1f2430;margin:1.5rem;max-width:860px}h1{font-size:1.4rem}article{border:1px solid #dde1e8;border-radius:8px;padding:1rem 1.25rem;margin:0 0 1.5rem;break-inside:avoid}h2{font-size:1.1rem;margin:0 0 .25rem}p{margin:.25rem 0;color:#5b6270}table{width:100%;border-collapse:collapse;margin-top:.75rem}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #eceef2}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tfoot td{font-weight:600;border-bottom:none}@media print{body{margin:0}a.print{display:none}article{border:none;break-after:page}}';
const PORTAL_STYLE_HASH = createHash('sha256').update(PORTAL_STYLE, 'utf8').digest('base64');

/** The page, bounded as every string schema is: a month's invoice takes a few KB, so years fit. */
const portalPage = z.string().max(8 * 1024 * 1024, { abort: true });
const portalParams = z.strictObject({ organizationId: pathParameter });
const portalQuery = z.looseObject({
  expires: z.string().max(20, { abort: true }).optional(),
  signature: z.string().max(100, { abort: true }).optional(),
});

/** The portal page's address with a link's query (signed, expiring). */
function invoicePortalHref(
  urls: FamilyUrls,
  organizationId: string,
  link: { expires: number; signature: string },
): string {
  const portal = new URL(`${urls.billing}/invoice_portal/${encodeURIComponent(organizationId)}`);
  portal.searchParams.set('expires', String(link.expires));
  portal.searchParams.set('signature', link.signature);
  return portal.toString();
}

/**
 * The billing detail's `external_invoice_portal_url` (spec 1 §3, the page the Invoices screen frames): a
 * fresh signed link for a caller who may read the organization's invoices, null for anyone else.
 */
export function invoicePortalUrlOf(urls: FamilyUrls, invoices: Pick<InvoicesService, 'portalLink'>) {
  return (caller: CallerAccess, organizationId: string): string | null => {
    const link = invoices.portalLink(caller, organizationId);
    return link ? invoicePortalHref(urls, organizationId, link) : null;
  };
}

function toInvoiceHal(invoice: Invoice, urls: FamilyUrls): InvoiceResource {
  return {
    id: String(invoice.id),
    _type: 'invoice',
    period_start: iso(invoice.periodStart),
    period_end: iso(invoice.periodEnd),
    plan_name: invoice.planName,
    discount_percent: invoice.discountPercent,
    lines: invoice.lines.map((line) => ({
      description: line.description,
      used: line.used,
      included: line.included,
      unit: line.unit,
      amount_cents: line.amountCents,
    })),
    plan_cents: invoice.planCents,
    usage_cents: invoice.usageCents,
    included_cents: invoice.includedCents,
    discount_cents: invoice.discountCents,
    total_cents: invoice.totalCents,
    created_at: iso(invoice.createdAt),
    _links: { billing_detail: { href: `${urls.billing}/billing_details/${invoice.organizationId}` } },
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);
const quantity = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

function invoiceHtml(invoice: Invoice, organizationName: string): string {
  const rows = invoice.lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.description)}</td><td class="n">${quantity(line.used)} ${escapeHtml(line.unit)}</td><td class="n">${quantity(line.included)}</td><td class="n">${formatCents(line.amountCents)}</td></tr>`,
    )
    .join('');
  const plan = escapeHtml(invoice.planName);
  return `<article><h2>Invoice ${invoice.id}</h2><p>${organizationName}: ${day(invoice.periodStart)} to ${day(invoice.periodEnd)} (UTC), ${plan} plan</p><table><thead><tr><th>Usage</th><th class="n">Used</th><th class="n">Included in plan</th><th class="n">Amount</th></tr></thead><tbody>${rows || '<tr><td colspan="4">Nothing used beyond the plan.</td></tr>'}</tbody><tfoot><tr><td colspan="3">Usage above the plan</td><td class="n">${formatCents(invoice.usageCents)}</td></tr><tr><td colspan="3">Discount (${invoice.discountPercent}%)</td><td class="n">-${formatCents(invoice.discountCents)}</td></tr><tr><td colspan="3">${plan} plan</td><td class="n">${formatCents(invoice.planCents)}</td></tr><tr><td colspan="3">Total</td><td class="n">${formatCents(invoice.totalCents)}</td></tr></tfoot></table></article>`;
}

function portalHtml(shown: { organizationName: string; invoices: Invoice[] }, printUrl: string): string {
  // The organization's name is its members' input: escaped once here, like every other value.
  const name = escapeHtml(shown.organizationName);
  const body = shown.invoices.length
    ? shown.invoices.map((invoice) => invoiceHtml(invoice, name)).join('')
    : '<p>You have no invoices.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Invoices</title><style>${PORTAL_STYLE}</style></head><body><h1>Invoices of ${name}</h1><p><a class="print" href="${escapeHtml(printUrl)}" target="_blank" rel="noopener">Open to print</a></p>${body}</body></html>`;
}

/**
 * Issue 37: `GET /billing_details/:id/invoices` (the organization's invoices and its portal link, for
 * owners and billing owners), and the portal page itself, `GET /invoice_portal/:organizationId`: printable
 * HTML read through the signed link (an iframe sends no bearer token), which only the console's own
 * origin may frame.
 */
export async function invoicesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; invoices: InvoicesService },
) {
  const { urls, callers, invoices } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Invoices'];
  const consoleOrigin = new URL(urls.app).origin;

  app.get(
    '/billing_details/:id/invoices',
    {
      schema: {
        tags,
        summary: "A page of the organization's invoices, newest first, and its invoice portal link",
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: invoiceCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const organizationId = request.params.id;
      const paging = pagingFrom(request.query);
      const { items, total } = await invoices.list(caller, organizationId, paging);
      const page = collection(
        'invoices',
        `${urls.billing}/billing_details/${organizationId}/invoices`,
        items.map((invoice) => toInvoiceHal(invoice, urls)),
        { ...paging, total },
      );
      const portal = invoicePortalUrlOf(urls, invoices)(caller, organizationId);
      return { ...page, _links: { ...page._links, ...(portal ? { portal: { href: portal } } : {}) } };
    },
  );

  app.get(
    '/invoice_portal/:organizationId',
    {
      schema: {
        tags,
        summary: "The organization's invoice portal: its invoices as a printable page (a signed link)",
        params: portalParams,
        querystring: portalQuery,
        response: responses({ 200: { content: { 'text/html': { schema: portalPage } } } }),
      },
      // A frame sends no bearer token: the signed link is the access (checked by the service).
      config: { public: true },
      helmet: {
        // The console frames this page (800 px tall): its own origin may, no other site.
        frameguard: false,
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            'default-src': ["'none'"],
            'base-uri': ["'none'"],
            'form-action': ["'none'"],
            'frame-ancestors': ["'self'", consoleOrigin],
            'style-src': [`'sha256-${PORTAL_STYLE_HASH}'`],
          },
        },
      },
    },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const shown = await invoices.portal(
        request.params.organizationId,
        Number(expires ?? Number.NaN),
        signature ?? '',
      );
      // A forged, expired or unknown link: the 404 of any unknown path.
      if (!shown) throw notFound();
      reply.header('cache-control', 'no-store');
      return reply.type('text/html; charset=utf-8').send(portalHtml(shown, request.url));
    },
  );
}
