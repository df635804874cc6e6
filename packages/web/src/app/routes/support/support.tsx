import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import {
  downloadSupportAttachment,
  uploadSupportAttachment,
  useCreateSupportTicket,
  useSupportTicket,
  useSupportTickets,
} from '../../../features/support/api/support-tickets.ts';
import { SupportTicketForm } from '../../../features/support/components/support-ticket-form.tsx';
import {
  SupportTicketDetail,
  SupportTickets,
} from '../../../features/support/components/support-tickets.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/** The query parameters a page prefills the form with (lib/paths.ts `to.support`). */
const PREFILL_PARAMS = ['subject', 'description', 'priority'] as const;

const prefillOf = (params: URLSearchParams) => JSON.stringify(PREFILL_PARAMS.map((name) => params.get(name)));
const NO_PREFILL = prefillOf(new URLSearchParams());

/**
 * The form's key: a new prefill (another request sent here) starts the form afresh; any other change of
 * the query string (a `?ticket=` link, the list's search or page, the prefill dropped after a submit)
 * keeps what was typed.
 */
function usePrefillKey(params: URLSearchParams): number {
  const prefill = prefillOf(params);
  const [seen, setSeen] = useState({ prefill, key: 0 });
  if (prefill !== seen.prefill) {
    const key = prefill === NO_PREFILL ? seen.key : seen.key + 1;
    setSeen({ prefill, key });
    return key;
  }
  return seen.key;
}

/**
 * spec 3 §2 /support: the ticket form, prefilled by `subject`, `description` and `priority` when a page
 * sends a request through support (a VPN tunnel, a dedicated stack), and the requester's tickets. `ticket`
 * shows one ticket in full: the page a support mail links to, for its requester and superusers.
 */
function SupportRoute() {
  const { user } = useConsoleContext();
  const [params, setParams] = useSearchParams();
  const ticketId = params.get('ticket');
  const formKey = usePrefillKey(params);
  const tickets = useSupportTickets();
  const ticket = useSupportTicket(ticketId);
  const create = useCreateSupportTicket();

  return (
    <>
      <PageHeader
        title="Support"
        description="Ask your platform's support team for help, or for what the console sends through support."
      />
      <div className="support-layout">
        {ticketId ? (
          ticket.error ? (
            <Banner variant="error">Error: {ticket.error.message}</Banner>
          ) : ticket.data ? (
            <SupportTicketDetail ticket={ticket.data} download={downloadSupportAttachment} />
          ) : (
            <Skeleton label="Loading ticket" />
          )
        ) : null}
        {user ? (
          <SupportTicketForm
            key={formKey}
            initial={{
              email: user.email,
              name: user.name,
              subject: params.get('subject') ?? '',
              description: params.get('description') ?? '',
              priority: params.get('priority') ?? '',
            }}
            upload={uploadSupportAttachment}
            onSubmit={async (input) => {
              await create.mutateAsync(input);
              // The request is sent: a reload must not prefill it again.
              setParams(
                (current) => {
                  const next = new URLSearchParams(current);
                  for (const name of PREFILL_PARAMS) next.delete(name);
                  return next;
                },
                { replace: true },
              );
            }}
          />
        ) : (
          <Skeleton label="Loading your details" />
        )}
        <section className="section-stack" aria-label="Your tickets">
          <h2 className="section-title">Your tickets</h2>
          <SupportTickets
            tickets={tickets.data ?? []}
            isLoading={tickets.isPending}
            error={tickets.error}
            download={downloadSupportAttachment}
          />
        </section>
      </div>
    </>
  );
}

export { SupportRoute as Component };
