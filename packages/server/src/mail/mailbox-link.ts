import fs from 'node:fs';
import path from 'node:path';
import { type Config, isLoopbackUrl } from '../config.ts';

/** The file in the data directory that holds this start's mailbox link while the server runs. */
export const MAILBOX_LINK_FILE = 'mailbox-link';

/**
 * The link that opens the mailbox, with this start's secret. It answers only on this machine, so it
 * names PUBLIC_URL when that is this machine, else localhost at the server's port.
 */
export function mailboxLink(config: Pick<Config, 'publicUrl' | 'port'>, secret: string): string {
  const origin = isLoopbackUrl(config.publicUrl) ? config.publicUrl : `http://localhost:${config.port}`;
  return `${origin}/dev/mail?token=${secret}`;
}

/**
 * Keeps the link where the one who started the server finds it again (as Jupyter's runtime files keep
 * its token): readable by the server's user only, in the data directory that already holds every
 * secret of the server. Made anew, never through a file or link left there.
 */
export function writeMailboxLink(dataDir: string, link: string): void {
  const file = path.join(dataDir, MAILBOX_LINK_FILE);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, `${link}\n`, { flag: 'wx', mode: 0o600 });
}

/** At stop: the link dies with the process, so its file goes too. */
export function removeMailboxLink(dataDir: string): void {
  fs.rmSync(path.join(dataDir, MAILBOX_LINK_FILE), { force: true });
}

/**
 * What the start banner says about mail: nothing when SMTP_URL sends it; else where the kept mail can
 * be read, or, when nowhere, that mail is not being sent at all.
 */
export function mailStartLines(
  config: Pick<Config, 'publicUrl' | 'dataDir'>,
  transport: 'outbox' | 'smtp',
  link: string | null,
): { info: string[]; warnings: string[] } {
  if (transport === 'smtp') return { info: [], warnings: [] };
  if (link) {
    return {
      info: [
        'No SMTP_URL: mail is not sent. It is kept in the outbox, and each message and its links are printed here.',
        `Read the outbox on this machine at ${link}`,
        `(its secret is new at each start; the link is also in ${path.join(config.dataDir, MAILBOX_LINK_FILE)} while the server runs).`,
      ],
      warnings: [],
    };
  }
  const why = isLoopbackUrl(config.publicUrl)
    ? 'BERTH_MAILBOX is off'
    : `PUBLIC_URL (${config.publicUrl}) is not this machine, so the local mailbox is off`;
  return {
    info: [],
    warnings: [
      `Mail is not being sent: SMTP_URL is not set and ${why}. Verification, password reset and invitation mails reach nobody; set SMTP_URL to send them.`,
    ],
  };
}
