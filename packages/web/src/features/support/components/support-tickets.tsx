import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { SupportTicket } from '../api/support-tickets.ts';
import './support.css';

/** spec 3 §8: the empty text of a list. */
const NO_RESOURCES_FOUND = 'No resources found';

function kilobytes(size: number): string {
  return `${Math.max(1, Math.round(size / 1024))} KB`;
}

/** A ticket's files, each saved on request with the session's token. */
function AttachmentLinks({
  ticket,
  download,
}: {
  ticket: SupportTicket;
  download: (href: string, fileName: string) => Promise<void>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  if (ticket.attachments.length === 0) return <>None</>;
  return (
    <>
      <ul className="attachment-list">
        {ticket.attachments.map((file) => (
          <li key={file.id}>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setFailure(null);
                download(file.downloadHref, file.fileName).catch((error: unknown) =>
                  setFailure(messageOf(error)),
                );
              }}
            >
              {file.fileName}
            </Button>
            <span className="support-note">{kilobytes(file.size)}</span>
          </li>
        ))}
      </ul>
      {failure ? <Banner variant="error">Error: {failure}</Banner> : null}
    </>
  );
}

/** The requester's tickets, newest first. */
export function SupportTickets({
  tickets,
  download,
}: {
  tickets: SupportTicket[];
  download: (href: string, fileName: string) => Promise<void>;
}) {
  if (tickets.length === 0) {
    return <EmptyState title={NO_RESOURCES_FOUND} description="Tickets you send appear here." />;
  }
  return (
    <StaticTable caption="Your tickets" columns={['Subject', 'Priority', 'Sent', 'Attachments']}>
      {tickets.map((ticket) => (
        <tr key={ticket.id}>
          <td>
            <strong>{ticket.subject}</strong>
            <div className="support-note">#{ticket.id}</div>
          </td>
          <td>{ticket.priority}</td>
          <td>{formatDateTime(ticket.createdAt)}</td>
          <td>
            <AttachmentLinks ticket={ticket} download={download} />
          </td>
        </tr>
      ))}
    </StaticTable>
  );
}

/** One ticket in full (the page a support mail links to). */
export function SupportTicketDetail({
  ticket,
  download,
}: {
  ticket: SupportTicket;
  download: (href: string, fileName: string) => Promise<void>;
}) {
  return (
    <section className="card card-body section-stack" aria-label={`Ticket #${ticket.id}`}>
      <h2 className="section-title">
        Ticket #{ticket.id}: {ticket.subject}
      </h2>
      <p className="support-note">
        Priority {ticket.priority}, sent {formatDateTime(ticket.createdAt)}
      </p>
      <pre className="request-preview">{ticket.description}</pre>
      <AttachmentLinks ticket={ticket} download={download} />
    </section>
  );
}
