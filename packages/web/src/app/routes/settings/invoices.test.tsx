import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { invoiceHal } from '../../../../test/billing-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, roleHal, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { INVOICE_TEXTS } from './invoices.tsx';

const PORTAL = `${TEST_CONFIG.billingUrl}/invoice_portal/org-1?expires=1900000000&signature=abc`;

function invoicesServer({
  roleType = 'owner',
  invoices = [invoiceHal('7', 27_244)],
  portal = PORTAL as string | null,
}: {
  roleType?: string;
  invoices?: ReturnType<typeof invoiceHal>[];
  portal?: string | null;
} = {}) {
  signIn();
  return mockServer({
    ...consoleRoutes({ roles: [roleHal({ type: roleType })] }),
    'GET /billing/billing_details/org-1/invoices': () =>
      roleType === 'platform_user'
        ? json(403, errorBody(403, 'forbidden', INVOICE_TEXTS.ownersOnly))
        : json(200, {
            _embedded: { invoices },
            _links: {
              self: { href: `${TEST_CONFIG.billingUrl}/billing_details/org-1/invoices` },
              ...(portal ? { portal: { href: portal } } : {}),
            },
            current_page: 1,
            per_page: Math.max(invoices.length, 1),
            total_count: invoices.length,
          }),
  });
}

describe('Invoices (spec 1 §2 /settings/billing/invoices)', () => {
  it('frames the invoice portal 800 px tall for the account owner, listed in the Billing menu', async () => {
    invoicesServer();
    renderApp('/settings/billing/invoices');
    const frame = await screen.findByTitle('Invoice portal');
    expect(frame).toHaveAttribute('src', PORTAL);
    expect(frame).toHaveAttribute('height', '800');
    expect(screen.getByText(INVOICE_TEXTS.older)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/settings/billing/invoices',
    );
  });

  it('is open to billing owners', async () => {
    invoicesServer({ roleType: 'billing_owner' });
    renderApp('/settings/billing/invoices');
    expect(await screen.findByTitle('Invoice portal')).toBeInTheDocument();
  });

  it('says when there are no invoices', async () => {
    invoicesServer({ invoices: [] });
    renderApp('/settings/billing/invoices');
    expect(await screen.findByText(INVOICE_TEXTS.none)).toBeInTheDocument();
    expect(screen.queryByTitle('Invoice portal')).not.toBeInTheDocument();
  });

  it('reads every page of the invoices, following each next link', async () => {
    signIn();
    const list = `${TEST_CONFIG.billingUrl}/billing_details/org-1/invoices`;
    const page = (invoices: ReturnType<typeof invoiceHal>[], number: number, next: boolean) =>
      json(200, {
        _embedded: { invoices },
        _links: {
          self: { href: `${list}?page=${number}` },
          portal: { href: PORTAL },
          ...(next ? { next: { href: `${list}?page=${number + 1}` } } : {}),
        },
        current_page: number,
        per_page: 1,
        total_count: 2,
      });
    const server = mockServer({
      ...consoleRoutes({ roles: [roleHal({ type: 'owner' })] }),
      'GET /billing/billing_details/org-1/invoices': () => page([], 1, true),
      'GET /billing/billing_details/org-1/invoices?page=2': () => page([invoiceHal('8', 100)], 2, true),
      'GET /billing/billing_details/org-1/invoices?page=3': () => page([invoiceHal('7', 200)], 3, false),
    });
    renderApp('/settings/billing/invoices');
    // The first page held none, the later ones did: there are invoices to show.
    expect(await screen.findByTitle('Invoice portal')).toHaveAttribute('src', PORTAL);
    expect(screen.queryByText(INVOICE_TEXTS.none)).not.toBeInTheDocument();
    expect(server.calls.filter((call) => call.path.includes('/invoices')).map((call) => call.path)).toEqual([
      '/billing/billing_details/org-1/invoices',
      '/billing/billing_details/org-1/invoices?page=2',
      '/billing/billing_details/org-1/invoices?page=3',
    ]);
  });

  it('says when the organization has no invoice portal', async () => {
    invoicesServer({ portal: null });
    renderApp('/settings/billing/invoices');
    expect(await screen.findByText(INVOICE_TEXTS.notConfigured)).toBeInTheDocument();
  });

  it('refuses other members without asking for the invoices', async () => {
    const server = invoicesServer({ roleType: 'platform_user' });
    renderApp('/settings/billing/invoices');
    expect(await screen.findByText(INVOICE_TEXTS.ownersOnly)).toBeInTheDocument();
    expect(server.callsTo('GET', '/billing/billing_details/org-1/invoices')).toHaveLength(0);
  });
});
