import type { FastifyInstance } from 'fastify';
import { isFromThisMachine } from '../http/client-address.ts';
import { iso } from '../http/hal.ts';
import { inlineStylePage } from '../http/security-headers.ts';
import { escapeHtml, type Mailer } from './mailer.ts';

/** The mailbox page's only style: inline, and allowed by its hash in the page's CSP. */
const MAILBOX_STYLE =
  'body{font:15px system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2430}article{border:1px solid #dde1e8;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;justify-content:space-between;gap:1rem;color:#5b6270;margin-bottom:.5rem}strong{color:#1f2430}';

/**
 * While the outbox is the transport, a plain mailbox page lets a newcomer read the mail Berth sent
 * (verification links). It is not registered when SMTP_URL delivers real mail.
 *
 * Register it with `register` under the /dev prefix: the guard is a hook of this plugin, so it applies
 * to exactly these routes, however the path that reached them was spelled.
 */
export async function mailboxRoutes(app: FastifyInstance, options: { mailer: Mailer }) {
  const { mailer } = options;
  // The mailbox holds live verification and invitation links: only the machine itself may read it.
  // Everyone else gets the 404 of any unknown path, so the mailbox is not even seen to exist.
  app.addHook('onRequest', async (request, reply) => {
    if (!isFromThisMachine(request)) return reply.callNotFound();
  });
  app.get('/mail.json', async () => {
    const messages = await mailer.recent();
    return {
      messages: messages.map((m) => ({
        id: String(m.id),
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html,
        created_at: iso(m.createdAt),
      })),
    };
  });
  app.get('/mail', { helmet: inlineStylePage(MAILBOX_STYLE) }, async (_request, reply) => {
    const messages = await mailer.recent();
    const items = messages
      .map(
        (m) =>
          `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${iso(m.createdAt)}</span></header>${m.html}</article>`,
      )
      .join('');
    const body = items || '<p>No mail yet.</p>';
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Berth mailbox</title><style>${MAILBOX_STYLE}</style></head><body><h1>Berth mailbox</h1><p>Mail the server sent while no SMTP server is configured, newest first.</p>${body}</body></html>`,
      );
  });
}
