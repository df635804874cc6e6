import { SUPPORT_PRIORITIES } from '@berth/core';
import { useMemo, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { SupportTicket } from '../api/support-tickets.ts';
import './support.css';

/** Saves one of a ticket's files (the route passes downloadSupportAttachment). */
type Download = (href: string, fileName: string) => Promise<void>;

function kilobytes(size: number): string {
  return `${Math.max(1, Math.round(size / 1024))} KB`;
}

/** A ticket's files, each saved on request with the session's token. */
function AttachmentLinks({ ticket, download }: { ticket: SupportTicket; download: Download }) {
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

function ticketColumns(download: Download): DataTableColumn<SupportTicket>[] {
  return [
    {
      id: 'subject',
      header: 'Subject',
      cell: (ticket) => (
        <>
          <strong>{ticket.subject}</strong>
          <div className="support-note">#{ticket.id}</div>
        </>
      ),
      sortValue: (ticket) => ticket.subject.toLowerCase(),
    },
    {
      id: 'priority',
      header: 'Priority',
      cell: (ticket) => ticket.priority,
      sortValue: (ticket) => (SUPPORT_PRIORITIES as readonly string[]).indexOf(ticket.priority),
    },
    {
      id: 'sent',
      header: 'Sent',
      cell: (ticket) => formatDateTime(ticket.createdAt),
      sortValue: (ticket) => ticket.createdAt,
    },
    {
      id: 'attachments',
      header: 'Attachments',
      cell: (ticket) => <AttachmentLinks ticket={ticket} download={download} />,
    },
  ];
}

const searchText = (ticket: SupportTicket) => [
  ticket.subject,
  ticket.id,
  ticket.priority,
  ...ticket.attachments.map((file) => file.fileName),
];

/** The requester's tickets, newest first (as the server answers them), in the console's list table. */
export function SupportTickets({
  tickets,
  isLoading,
  error,
  download,
}: {
  tickets: readonly SupportTicket[];
  isLoading: boolean;
  error: Error | null;
  download: Download;
}) {
  const columns = useMemo(() => ticketColumns(download), [download]);
  return (
    <DataTable<SupportTicket>
      label="Your tickets"
      rows={tickets}
      columns={columns}
      searchText={searchText}
      isLoading={isLoading}
      error={error}
      searchPlaceholder="Search your tickets"
    />
  );
}

/** One ticket in full (the page a support mail links to). */
export function SupportTicketDetail({ ticket, download }: { ticket: SupportTicket; download: Download }) {
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
