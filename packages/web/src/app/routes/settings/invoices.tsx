import { billingMessages, hasBillingAccess } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { FullPageSpinner } from '../../../components/ui/spinner.tsx';
import { useInvoices } from '../../../features/billing/api/use-invoices.ts';
import '../../../features/billing/components/billing.css';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 1 §8's texts of the Invoices screen. */
export const INVOICE_TEXTS = {
  none: 'You have no invoices.',
  notConfigured: 'External invoice portal URL is not configured for this organization.',
  ownersOnly: billingMessages.invoicesOwnersOnly,
  older: 'Invoices before 24 November 2024 go through support.',
} as const;

/**
 * spec 1 §2 /settings/billing/invoices: the organization's invoices, in its invoice portal framed 800 px
 * tall (spec 1 §7). For the Account Owner and the Billing Only Owner (spec 1 §6).
 */
function InvoicesRoute() {
  const { organization, actor } = useConsoleContext();
  const mayRead = hasBillingAccess(actor);
  const invoices = useInvoices(organization?.billingDetailId ?? null, { enabled: mayRead });

  const header = <PageHeader title="Invoices" description={INVOICE_TEXTS.older} />;
  let body: React.ReactNode;
  if (!organization?.billingDetailId) {
    body = <Banner variant="warning">Choose or create an organization first.</Banner>;
  } else if (!mayRead) {
    body = <Banner variant="error">{INVOICE_TEXTS.ownersOnly}</Banner>;
  } else if (invoices.error) {
    body = <Banner variant="error">{invoices.error.message}</Banner>;
  } else if (!invoices.data) {
    return <FullPageSpinner label="Loading invoices" />;
  } else if (!invoices.data.portalUrl) {
    body = <Banner variant="warning">{INVOICE_TEXTS.notConfigured}</Banner>;
  } else if (invoices.data.invoices.length === 0) {
    body = <p className="muted">{INVOICE_TEXTS.none}</p>;
  } else {
    body = (
      <iframe title="Invoice portal" className="invoice-portal" src={invoices.data.portalUrl} height={800} />
    );
  }
  return (
    <>
      {header}
      {body}
    </>
  );
}

export { InvoicesRoute as Component };
