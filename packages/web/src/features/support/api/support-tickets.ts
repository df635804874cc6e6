import type { SupportTicketInput, SupportTicketResource, SupportUploadAnswer } from '@berth/core';
import { MAX_PAGE_SIZE } from '@berth/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsByNextLink } from '../../../lib/all-pages.ts';
import { apiDownload, apiRequest } from '../../../lib/api-client.ts';
import { downloadBlob } from '../../../lib/download.ts';

/** A ticket as the Support page lists it. */
export interface SupportTicket {
  id: string;
  subject: string;
  description: string;
  priority: string;
  createdAt: string;
  attachments: { id: string; fileName: string; size: number; downloadHref: string }[];
}

export function fromSupportTicketResource(ticket: SupportTicketResource): SupportTicket {
  return {
    id: ticket.id,
    subject: ticket.subject,
    description: ticket.description,
    priority: ticket.priority,
    createdAt: ticket.created_at,
    attachments: ticket.attachments.map((file) => ({
      id: file.id,
      fileName: file.file_name,
      size: file.size,
      downloadHref: file._links.download.href,
    })),
  };
}

export const supportKeys = {
  all: ['support-tickets'] as const,
  list: () => [...supportKeys.all, 'list'] as const,
  one: (id: string) => [...supportKeys.all, 'one', id] as const,
};

/** The caller's own tickets, every page (newest first), following `_links.next` (contract §1.4). */
export function supportTicketsQuery() {
  return queryOptions({
    queryKey: supportKeys.list(),
    queryFn: async ({ signal }) =>
      (
        await itemsByNextLink<SupportTicketResource>(
          'api',
          `/support/tickets?per_page=${MAX_PAGE_SIZE}`,
          'support_tickets',
          signal,
        )
      ).map(fromSupportTicketResource),
  });
}

export function useSupportTickets() {
  return useQuery(supportTicketsQuery());
}

/** One ticket (its requester, or a superuser following a support mail's link). */
export function useSupportTicket(id: string | null) {
  return useQuery({
    queryKey: supportKeys.one(id ?? ''),
    queryFn: async ({ signal }) =>
      fromSupportTicketResource(
        await apiRequest<SupportTicketResource>('api', `/support/tickets/${encodeURIComponent(id ?? '')}`, {
          signal,
        }),
      ),
    enabled: Boolean(id),
  });
}

/** contract §5.13 `POST /support/upload`: one file, multipart, field `file`. */
export function uploadSupportAttachment(file: File): Promise<SupportUploadAnswer> {
  const formData = new FormData();
  formData.append('file', file, file.name);
  return apiRequest<SupportUploadAnswer>('api', '/support/upload', { method: 'POST', formData });
}

/** contract §5.13 `POST /support/create`. */
export function useCreateSupportTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SupportTicketInput) =>
      apiRequest<Record<string, never>>('api', '/support/create', { method: 'POST', body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.all }),
  });
}

/** Saves a ticket's file (read with the session's bearer: the link alone opens nothing). */
export async function downloadSupportAttachment(href: string, fileName: string): Promise<void> {
  downloadBlob(fileName, await apiDownload('api', href));
}
