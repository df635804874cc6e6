import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';
import { testApp } from '../testing/test-app.ts';
import { openTestDatabase } from '../testing/test-database.ts';
import { createMailer, MAIL_ATTEMPTS, type Mail, mailRetryDelayMs } from './mailer.ts';

// Issue 19: mail that fails to go out is said once in plain words, tried again with backoff, and
// reported by /readyz.

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const mail = (to: string): Mail => ({ to, subject: 'Hello', text: 'Hi', html: '<p>Hi</p>' });

describe('mail delivery', () => {
  it('delivers through SMTP_URL with nodemailer, loaded at the first mail, and marks the message sent', async () => {
    const received: { to: string[]; data: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, done) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data: Buffer.concat(chunks).toString('utf8'),
          });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = smtp.server.address() as AddressInfo;
      const mailer = createMailer({
        db: database.db,
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'Berth <no-reply@example.com>',
      });
      expect(mailer.transport).toBe('smtp');
      await mailer.send(mail('smtp-reader@example.com'));
      expect(received).toHaveLength(1);
      expect(received[0]?.to).toEqual(['smtp-reader@example.com']);
      expect(received[0]?.data).toContain('Subject: Hello');
      expect(received[0]?.data).toContain('From: Berth <no-reply@example.com>');
      const [row] = await database.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, 'smtp-reader@example.com'));
      expect(row?.sentAt).toBeInstanceOf(Date);
      expect(row).toMatchObject({ attempts: 1, error: null });
    } finally {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });

  it('keeps a failed message, says so once, tries it again when due and says when mail goes again', async () => {
    let down = true;
    const delivered: string[] = [];
    const notices: string[] = [];
    const mailer = createMailer({
      db: database.db,
      smtpUrl: 'smtps://user:secret@smtp.example.com:465',
      from: 'Berth <no-reply@example.com>',
      onNotice: (line) => notices.push(line),
      deliver: async (message) => {
        if (down) throw new Error('connect ECONNREFUSED 192.0.2.1:465');
        delivered.push(message.to);
      },
    });
    const now = new Date();
    await expect(mailer.send(mail('ada@example.com'))).rejects.toThrow('ECONNREFUSED');
    await expect(mailer.send(mail('grace@example.com'))).rejects.toThrow('ECONNREFUSED');
    expect(mailer.failing()).toBe(true);
    expect(notices).toEqual([
      'Mail could not be sent through smtp.example.com:465 (SMTP_URL): connect ECONNREFUSED 192.0.2.1:465. Berth keeps it and tries again, up to 8 times.',
    ]);
    const [kept] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ada@example.com'));
    expect(kept).toMatchObject({ sentAt: null, attempts: 1, error: 'connect ECONNREFUSED 192.0.2.1:465' });

    // Not before its wait is over.
    expect(await mailer.retryDue(now)).toBe(0);
    down = false;
    expect(await mailer.retryDue(new Date(now.getTime() + mailRetryDelayMs(1) + 1000))).toBe(2);
    expect(delivered).toEqual(['ada@example.com', 'grace@example.com']);
    expect(mailer.failing()).toBe(false);
    expect(notices.at(-1)).toBe('Mail is going out again through smtp.example.com:465.');
    const [sent] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'ada@example.com'));
    expect(sent).toMatchObject({ attempts: 2, error: null, retryAt: null });
    expect(sent?.sentAt).toBeInstanceOf(Date);
  });

  it('waits longer after each failure, at most an hour, and gives up after its attempts', async () => {
    expect([1, 2, 3, 4].map(mailRetryDelayMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(mailRetryDelayMs(20)).toBe(60 * 60_000);
    const mailer = createMailer({
      db: database.db,
      smtpUrl: 'smtp://smtp.example.com',
      from: 'Berth <no-reply@example.com>',
      deliver: async () => {
        throw new Error('550 mailbox unavailable');
      },
    });
    await expect(mailer.send(mail('nobody@example.com'))).rejects.toThrow('550');
    let clock = Date.now();
    for (let i = 1; i < MAIL_ATTEMPTS; i++) {
      clock += mailRetryDelayMs(i) + 1000;
      await mailer.retryDue(new Date(clock));
    }
    const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'nobody@example.com'));
    expect(row).toMatchObject({ attempts: MAIL_ATTEMPTS, retryAt: null, sentAt: null });
  });

  it('is reported by /readyz while it fails', async () => {
    const t = await testApp({ smtpUrl: 'smtp://127.0.0.1:9' });
    try {
      expect((await t.call('GET', '/readyz')).json()).toEqual({ status: 'ok' });
      await t.call('POST', '/auth/password_resets', { body: { email: 'someone@example.com' } });
      await t.signUp({ name: 'Mail Down' }).catch(() => undefined);
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json().failed).toContain('mail');
    } finally {
      await t.close();
    }
  });
});
