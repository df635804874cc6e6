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

/**
 * spec 3 §2 /support: the ticket form, prefilled by `subject`, `description` and `priority` when a page
 * sends a request through support (a VPN tunnel, a dedicated stack), and the requester's tickets. `ticket`
 * shows one ticket in full: the page a support mail links to, for its requester and superusers.
 */
function SupportRoute() {
  const { user } = useConsoleContext();
  const [params] = useSearchParams();
  const ticketId = params.get('ticket');
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
            // A new prefill (another request sent here) starts the form afresh.
            key={params.toString()}
            initial={{
              email: user.email,
              name: user.name,
              subject: params.get('subject') ?? '',
              description: params.get('description') ?? '',
              priority: params.get('priority') ?? '',
            }}
            upload={uploadSupportAttachment}
            onSubmit={(input) => create.mutateAsync(input)}
          />
        ) : (
          <Skeleton label="Loading your details" />
        )}
        <section className="section-stack" aria-label="Your tickets">
          <h2 className="section-title">Your tickets</h2>
          {tickets.error ? <Banner variant="error">Error: {tickets.error.message}</Banner> : null}
          {tickets.data ? (
            <SupportTickets tickets={tickets.data} download={downloadSupportAttachment} />
          ) : tickets.isPending ? (
            <Skeleton label="Loading your tickets" />
          ) : null}
        </section>
      </div>
    </>
  );
}

export { SupportRoute as Component };
