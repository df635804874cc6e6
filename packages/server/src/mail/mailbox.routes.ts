import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { isFromThisMachine } from '../http/client-address.ts';
import { iso } from '../http/hal.ts';
import { inlineStylePage } from '../http/security-headers.ts';
import { escapeHtml, type Mailer } from './mailer.ts';

/** The mailbox page's only style: inline, and allowed by its hash in the page's CSP. */
const MAILBOX_STYLE =
  'body{font:15px system-ui,sans-serif;max-width:760px;margin:2rem auto;padding:0 1rem;color:#1f2430}article{border:1px solid #dde1e8;border-radius:8px;padding:1rem;margin:1rem 0}header{display:flex;justify-content:space-between;gap:1rem;color:#5b6270;margin-bottom:.5rem}strong{color:#1f2430}';

/** The cookie that keeps the mailbox's secret in the browser that opened the printed link. */
export const MAILBOX_COOKIE = 'berth_mailbox';
/** Longer than any secret `newMailboxSecret` makes: what is longer is refused before it is hashed. */
const MAILBOX_SECRET_MAX_LENGTH = 100;

/** A fresh secret for the mailbox, made at each start of the server (256 random bits). */
export function newMailboxSecret(): string {
  return randomBytes(32).toString('base64url');
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * While the outbox is the transport, a plain mailbox page lets a newcomer read the mail Berth sent
 * (verification links). It is not registered when SMTP_URL delivers real mail.
 *
 * Register it with `register` under the /dev prefix: the guard is a hook of this plugin, so it applies
 * to exactly these routes, however the path that reached them was spelled.
 */
export async function mailboxRoutes(app: FastifyInstance, options: { mailer: Mailer; secret: string }) {
  const { mailer } = options;
  const expected = digest(options.secret);
  // Digests of equal length, compared in constant time: the answer's timing tells nothing of the secret.
  const isSecret = (value: unknown): value is string =>
    typeof value === 'string' &&
    value.length <= MAILBOX_SECRET_MAX_LENGTH &&
    timingSafeEqual(digest(value), expected);

  // The mailbox holds live verification and invitation links. Only the machine itself may read it, and
  // on it only whoever holds this start's secret (printed in the start banner's link): a local proxy
  // that rewrites Host and names no client passes the first test but not the second. Everyone else gets
  // the 404 of any unknown path, so the mailbox is not even seen to exist.
  app.addHook('onRequest', async (request, reply) => {
    if (!isFromThisMachine(request)) return reply.callNotFound();
    const offered = (request.query as Record<string, unknown>).token;
    if (offered !== undefined) {
      if (!isSecret(offered)) return reply.callNotFound();
      // The printed link: the browser keeps the secret (for /dev only, never sent by another site's
      // page) and goes on to the same page without it in its address bar.
      reply.setCookie(MAILBOX_COOKIE, offered, { path: '/dev', httpOnly: true, sameSite: 'strict' });
      reply.header('cache-control', 'no-store');
      return reply.redirect(request.routeOptions.url ?? '/dev/mail', 303);
    }
    if (!isSecret(request.cookies[MAILBOX_COOKIE])) return reply.callNotFound();
    // Live links: not for a browser's disk cache.
    reply.header('cache-control', 'no-store');
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
