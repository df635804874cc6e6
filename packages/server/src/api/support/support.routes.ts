import { createReadStream } from 'node:fs';
import {
  fileAnswer,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  supportCreateAnswer,
  supportMessages,
  supportTicketCollection,
  supportTicketResource,
  supportTicketSchema,
  supportUploadAnswer,
} from '@berth/core';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { ApiError } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idRoute, pagedQuery, route } from '../../http/route-schemas.ts';
import { toSupportTicketHal } from './support.hal.ts';
import type { SupportService } from './support.service.ts';

/**
 * `Content-Disposition: attachment` with the file's name: an ASCII fallback (quotes, backslashes and
 * anything outside printable ASCII replaced) and the exact name in RFC 5987's `filename*`.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The one file of an upload request (the field `file`), read whole within the size bound. */
async function uploadedFile(request: FastifyRequest): Promise<{ fileName: string; bytes: Buffer }> {
  if (!request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', supportMessages.notAFile);
  const part = await request.file();
  if (part?.fieldname !== 'file') {
    throw new ApiError(422, 'unprocessable_entity', supportMessages.notAFile, {
      file: [supportMessages.notAFile],
    });
  }
  try {
    return { fileName: part.filename, bytes: await part.toBuffer() };
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ApiError(413, 'payload_too_large', supportMessages.tooLarge);
    }
    throw error;
  }
}

/** contract §5.13 support calls, plus the requester's tickets and their files (Berth additions). */
export async function supportRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; support: SupportService },
) {
  const { urls, callers, support } = deps;
  const tags = ['Support'];

  // Multipart is read by this route alone; every other route of the family takes JSON only.
  await fastify.register(async (uploads) => {
    await uploads.register(multipart, {
      limits: { fileSize: SUPPORT_ATTACHMENT_MAX_BYTES, files: 1, fields: 10, parts: 11, headerPairs: 100 },
    });
    uploads.withTypeProvider<ZodTypeProvider>().post(
      '/support/upload',
      route(tags, 'Upload an attachment for a support ticket (multipart/form-data, field `file`)', {
        200: supportUploadAnswer,
      }),
      async (request) => {
        const caller = await callers.require(request);
        return support.upload(caller, await uploadedFile(request));
      },
    );
  });

  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/support/create',
    route(
      tags,
      'Send a support ticket',
      { 201: supportCreateAnswer },
      { body: bodyCheckedByService(supportTicketSchema, 'The ticket; attachments are upload tokens') },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      await support.create(caller, request.body);
      return reply.code(201).send({});
    },
  );

  app.get(
    '/support/tickets',
    route(
      tags,
      "The caller's support tickets, newest first",
      { 200: supportTicketCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const page = await support.list(caller, pagingFrom(request.query));
      return collection(
        'support_tickets',
        `${urls.api}/support/tickets`,
        page.items.map((ticket) => toSupportTicketHal(ticket, page.attachments.get(ticket.id) ?? [], urls)),
        page.paging,
      );
    },
  );

  app.get(
    '/support/tickets/:id',
    idRoute(tags, 'A support ticket (its requester and superusers)', { 200: supportTicketResource }),
    async (request) => {
      const caller = await callers.require(request);
      const { ticket, attachments } = await support.get(caller, parseNumericId(request.params.id));
      return toSupportTicketHal(ticket, attachments, urls);
    },
  );

  // Declared on the plain instance: its answer is a stream, which the typed reply does not take.
  fastify.get<{ Params: { id: string } }>(
    '/support/attachments/:id',
    idRoute(tags, "A support ticket's file, as a download (its requester and superusers)", {
      200: fileAnswer,
    }),
    async (request, reply) => {
      const caller = await callers.require(request);
      const { attachment, filePath } = await support.attachment(caller, parseNumericId(request.params.id));
      const mediaType =
        attachment.mediaType === 'text/plain' ? 'text/plain; charset=utf-8' : attachment.mediaType;
      return (
        reply
          .type(mediaType)
          .header('content-disposition', attachmentDisposition(attachment.fileName))
          // Saved, never shown: no sniffing, no script, not cached by anything shared.
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .header('cache-control', 'private, no-store')
          .send(createReadStream(filePath))
      );
    },
  );
}
