import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  attachmentTypeMessages,
  plainTextMessages,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  supportMessages,
} from '@berth/core';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { supportAttachments, supportTickets, users } from '../../db/schema.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import {
  createSupportService,
  SUPPORT_PENDING_UPLOADS_MAX,
  SUPPORT_UPLOAD_QUOTA_BYTES,
  supportQuotaMessage,
} from './support.service.ts';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('a tiny picture'),
]);

const supportDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-support-test-'));
let t: TestApp;
let requester: TestUser;
let other: TestUser;
let staff: TestUser;

beforeAll(async () => {
  t = await testApp({
    support: { emails: ['help@berth.test', 'oncall@berth.test'], dir: path.join(supportDir, 'support') },
  });
  requester = await t.signUp({ name: 'Rita Requester' });
  other = await t.signUp({ name: 'Otto Other' });
  staff = await t.signUp({ name: 'Sam Staff' });
  await t.db.update(users).set({ superuser: true }).where(eq(users.id, staff.id));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(supportDir, { recursive: true, force: true });
});

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
function multipart(fileName: string, bytes: Buffer, field = 'file') {
  const boundary = '----berth-test-boundary';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

function upload(user: TestUser | null, fileName: string, bytes: Buffer, field?: string) {
  const body = multipart(fileName, bytes, field);
  return t.app.inject({
    method: 'POST',
    url: '/api/support/upload',
    payload: body.payload,
    headers: { ...body.headers, ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
  });
}

const ticket = (changes: Record<string, unknown> = {}) => ({
  subject: 'Deploys are stuck',
  description: 'Our deploy has been queued for an hour.\nCan you look?',
  email: 'rita@example.com',
  name: 'Rita Requester',
  priority: 'high',
  attachments: [],
  ...changes,
});

describe('POST /support/upload', () => {
  it('keeps a checked file for its uploader, 0600 in a 0700 folder under the data directory', async () => {
    const response = await upload(requester, 'screen.png', PNG);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ token: expect.any(String), message: 'Uploaded screen.png (1 KB)' });
    const [row] = await t.db
      .select()
      .from(supportAttachments)
      .where(eq(supportAttachments.token, body.token));
    expect(row).toMatchObject({
      userId: requester.id,
      ticketId: null,
      fileName: 'screen.png',
      mediaType: 'image/png',
    });
    const dir = path.join(supportDir, 'support');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const stored = path.join(dir, row?.storedName ?? '');
    expect(fs.statSync(stored).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(stored).equals(PNG)).toBe(true);
    // Never the uploaded name.
    expect(row?.storedName).not.toContain('screen');
  });

  it('refuses callers without a token or a verified address before reading the file', async () => {
    expect((await upload(null, 'screen.png', PNG)).statusCode).toBe(401);
    const unverified = await t.signUp({ verified: false });
    expect((await upload(unverified, 'screen.png', PNG)).statusCode).toBe(403);
  });

  it('checks the type by name and by content, the size and the field', async () => {
    const html = Buffer.from('<html><script>alert(1)</script></html>');
    const cases: [string, Buffer, number, string][] = [
      ['page.html', html, 422, attachmentTypeMessages.type],
      // A page renamed to .png is not a picture.
      ['page.png', html, 422, attachmentTypeMessages.content('page.png')],
      // A program renamed to .txt is not text.
      [
        'tool.txt',
        Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00]),
        422,
        attachmentTypeMessages.content('tool.txt'),
      ],
      ['empty.txt', Buffer.alloc(0), 422, supportMessages.empty],
      ['big.txt', Buffer.alloc(SUPPORT_ATTACHMENT_MAX_BYTES + 1, 0x61), 413, supportMessages.tooLarge],
      ['README', Buffer.from('text'), 422, attachmentTypeMessages.type],
    ];
    for (const [name, bytes, status, message] of cases) {
      const response = await upload(requester, name, bytes);
      expect([name, response.statusCode, response.json().message]).toEqual([name, status, message]);
    }
    const wrongField = await upload(requester, 'log.txt', Buffer.from('ok'), 'document');
    expect([wrongField.statusCode, wrongField.json().message]).toEqual([422, supportMessages.notAFile]);
    const json = await t.call('POST', '/api/support/upload', { token: requester.token, body: { file: 'x' } });
    expect([json.statusCode, json.json().message]).toEqual([415, supportMessages.notAFile]);
    // Plain text, PDFs and the other pictures pass.
    for (const [name, bytes] of [
      ['notes.log', Buffer.from('2026-11-29 error: timeout\n')],
      ['report.pdf', Buffer.from('%PDF-1.7\n...')],
      ['photo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00])],
    ] as const) {
      expect((await upload(other, name, bytes)).statusCode, name).toBe(200);
    }
  });

  it(`holds at most ${SUPPORT_PENDING_UPLOADS_MAX} uploads no ticket has taken`, async () => {
    const hoarder = await t.signUp({ name: 'Hoarder' });
    for (let index = 0; index < SUPPORT_PENDING_UPLOADS_MAX; index++) {
      expect((await upload(hoarder, `log-${index}.txt`, Buffer.from('line'))).statusCode).toBe(200);
    }
    const refused = await upload(hoarder, 'one-more.txt', Buffer.from('line'));
    expect(refused.statusCode).toBe(429);
  });

  it('lets exactly the limit through when uploads race for its last places', async () => {
    const racer = await t.signUp({ name: 'Racer' });
    await t.db
      .insert(supportAttachments)
      .values(
        Array.from({ length: SUPPORT_PENDING_UPLOADS_MAX - 2 }, (_, index) => storedRow(racer.id, index)),
      );
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => upload(racer, `race-${index}.txt`, Buffer.from('line'))),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    const pending = await t.db
      .select()
      .from(supportAttachments)
      .where(and(eq(supportAttachments.userId, racer.id), isNull(supportAttachments.ticketId)));
    expect(pending).toHaveLength(SUPPORT_PENDING_UPLOADS_MAX);
    // The refused uploads left no file behind: only the two taken are on disk.
    const taken = pending.filter((row) => row.fileName.startsWith('race-'));
    expect(taken).toHaveLength(2);
    const onDisk = fs.readdirSync(path.join(supportDir, 'support'));
    expect(onDisk.filter((name) => taken.some((row) => row.storedName === name))).toHaveLength(2);
  });

  it(`holds each user to ${SUPPORT_UPLOAD_QUOTA_BYTES / 1024 / 1024} MB of uploads in any 30 days, taken by a ticket or not`, async () => {
    const heavy = await t.signUp({ name: 'Heavy Uploader' });
    const [sent] = await t.db
      .insert(supportTickets)
      .values({ userId: heavy.id, subject: 'Old', description: 'Old', email: heavy.email, name: 'Heavy' })
      .returning();
    // Files a ticket took 31 days ago no longer count; those of the last 30 days do.
    await t.db.insert(supportAttachments).values([
      {
        ...storedRow(heavy.id, 0),
        ticketId: sent?.id,
        size: SUPPORT_UPLOAD_QUOTA_BYTES,
        createdAt: new Date(Date.now() - 31 * 86_400_000),
      },
      { ...storedRow(heavy.id, 1), ticketId: sent?.id, size: SUPPORT_UPLOAD_QUOTA_BYTES - 20 },
    ]);
    expect((await upload(heavy, 'fits.txt', Buffer.from('ten bytes!'))).statusCode).toBe(200);
    const refused = await upload(heavy, 'over.txt', Buffer.from('eleven byte'));
    expect([refused.statusCode, refused.json().message]).toEqual([429, supportQuotaMessage]);
    expect(supportQuotaMessage).toMatch(/^You have uploaded 100 MB of support files in the last 30 days/);
    const kept = await t.db.select().from(supportAttachments).where(eq(supportAttachments.userId, heavy.id));
    expect(kept.map((row) => row.fileName).sort()).toEqual(['fits.txt', 'old-0.txt', 'old-1.txt']);
  });
});

/** A row as an earlier upload left it (its file is not needed to count it). */
function storedRow(userId: string, index: number) {
  return {
    userId,
    token: randomBytes(24).toString('base64url'),
    fileName: `old-${index}.txt`,
    mediaType: 'text/plain',
    size: 4,
    storedName: randomBytes(16).toString('hex'),
  };
}

describe('support files on disk', () => {
  const dir = path.join(supportDir, 'support');
  const HOUR = 3_600_000;

  it('are removed once their row is gone (a deleted user), never while it lives, nor while just written', async () => {
    const leaving = await t.signUp({ name: 'Leaving User' });
    const staying = await t.signUp({ name: 'Staying User' });
    const gone = (await upload(leaving, 'gone.txt', Buffer.from('bye'))).json().token;
    const kept = (await upload(staying, 'kept.txt', Buffer.from('hi'))).json().token;
    const nameOf = async (token: string) =>
      (await t.db.select().from(supportAttachments).where(eq(supportAttachments.token, token)))[0]
        ?.storedName ?? '';
    const goneName = await nameOf(gone);
    const keptName = await nameOf(kept);
    // The rows go by cascade; the file stays until the sweep.
    await t.db.delete(users).where(eq(users.id, leaving.id));
    expect(await nameOf(gone)).toBe('');
    const support = createSupportService({
      db: t.db,
      mailer: t.mailer,
      appUrl: 'http://berth.test',
      dir,
      supportEmails: [],
      tickets: { hit: async () => ({ forgive: async () => undefined }) },
      onMailError: () => undefined,
      onNotice: () => undefined,
    });
    // Just written: it may be an upload whose row is being inserted.
    await support.sweepOrphanFiles(new Date());
    expect(fs.existsSync(path.join(dir, goneName))).toBe(true);
    // A file that is not one of ours stays whatever its age.
    fs.writeFileSync(path.join(dir, 'operator-notes'), 'x');
    await support.sweepOrphanFiles(new Date(Date.now() + 2 * HOUR));
    expect(fs.existsSync(path.join(dir, goneName))).toBe(false);
    expect(fs.existsSync(path.join(dir, keptName))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'operator-notes'))).toBe(true);
    fs.rmSync(path.join(dir, 'operator-notes'));
  });

  it('keeps an upload a ticket takes while stale uploads are being dropped', async () => {
    const late = await t.signUp({ name: 'Late Sender' });
    const token = (await upload(late, 'day-old.txt', Buffer.from('old'))).json().token;
    const [row] = await t.db
      .update(supportAttachments)
      .set({ createdAt: new Date(Date.now() - 25 * HOUR) })
      .where(eq(supportAttachments.token, token))
      .returning();
    const [ticketRow] = await t.db
      .insert(supportTickets)
      .values({ userId: late.id, subject: 'Late', description: 'Late', email: late.email, name: 'Late' })
      .returning();
    // The ticket takes the upload between the sweep's choice of stale rows and its delete.
    const takeIt = () =>
      t.db
        .update(supportAttachments)
        .set({ ticketId: ticketRow?.id })
        .where(eq(supportAttachments.token, token));
    const racing = new Proxy(t.db, {
      get(target, property, receiver) {
        if (property !== 'delete') return Reflect.get(target, property, receiver);
        return (table: typeof supportAttachments) => ({
          where: (condition: SQL | undefined) => {
            const deleting = target.delete(table).where(condition);
            return {
              returning: async (fields: { storedName: typeof supportAttachments.storedName }) => {
                await takeIt();
                return deleting.returning(fields);
              },
              // biome-ignore lint/suspicious/noThenProperty: the delete is awaited as it is, without returning.
              then: (resolve: (value: unknown) => void, reject: (error: unknown) => void) =>
                takeIt()
                  .then(() => deleting)
                  .then(resolve, reject),
            };
          },
        });
      },
    });
    const support = createSupportService({
      db: racing,
      mailer: t.mailer,
      appUrl: 'http://berth.test',
      dir,
      supportEmails: [],
      tickets: { hit: async () => ({ forgive: async () => undefined }) },
      onMailError: () => undefined,
      onNotice: () => undefined,
    });
    await support.dropStaleUploads(new Date());
    const [after] = await t.db.select().from(supportAttachments).where(eq(supportAttachments.token, token));
    expect(after?.ticketId).toBe(ticketRow?.id);
    expect(fs.existsSync(path.join(dir, row?.storedName ?? ''))).toBe(true);
  });
});

describe('POST /support/create', () => {
  it('stores the ticket with its uploads, mails support and a copy to the requester', async () => {
    const first = (await upload(requester, 'screen.png', PNG)).json().token;
    const second = (await upload(requester, 'deploy.log', Buffer.from('queued\nqueued\n'))).json().token;
    const response = await t.call('POST', '/api/support/create', {
      token: requester.token,
      body: ticket({ attachments: [first, second] }),
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({});

    const [stored] = await t.db.select().from(supportTickets).where(eq(supportTickets.userId, requester.id));
    expect(stored).toMatchObject({
      subject: 'Deploys are stuck',
      priority: 'high',
      email: 'rita@example.com',
    });
    const files = await t.db
      .select()
      .from(supportAttachments)
      .where(eq(supportAttachments.ticketId, stored?.id ?? 0));
    expect(files.map((file) => file.fileName).sort()).toEqual(['deploy.log', 'screen.png']);

    const mail = await t.mailer.recent(50);
    const toSupport = mail.filter((m) => m.to === 'help@berth.test' || m.to === 'oncall@berth.test');
    expect(toSupport.map((m) => m.subject)).toEqual([
      `Support ticket #${stored?.id} (high): Deploys are stuck`,
      `Support ticket #${stored?.id} (high): Deploys are stuck`,
    ]);
    expect(toSupport[0]?.text).toContain('Our deploy has been queued for an hour.');
    expect(toSupport[0]?.text).toContain(`Rita Requester <rita@example.com> (account ${requester.email})`);
    expect(toSupport[0]?.text).toContain('- screen.png (image/png');
    expect(toSupport[0]?.text).toContain(`http://berth.test/support?ticket=${stored?.id}`);
    // The copy goes to the account's own address, never to the address typed into the form.
    const copy = mail.find((m) => m.to === requester.email && m.subject.startsWith('Your support ticket'));
    expect(copy?.subject).toBe(`Your support ticket #${stored?.id}: Deploys are stuck`);
    expect(mail.some((m) => m.to === 'rita@example.com')).toBe(false);
  });

  it('refuses a subject that would break the mail header, and empty fields, with their messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ subject: 'Help\r\nBcc: victim@example.com' }, plainTextMessages.control('Subject')],
      [{ subject: '  ' }, 'Subject must not be empty'],
      [{ description: '' }, 'Message must not be empty'],
      [{ priority: 'critical' }, supportMessages.priority],
      [{ attachments: ['a', 'b', 'c', 'd', 'e', 'f'] }, supportMessages.tooManyAttachments],
      [{ subject: 's'.repeat(201) }, 'Subject must be at most 200 characters'],
    ];
    for (const [change, message] of cases) {
      const response = await t.call('POST', '/api/support/create', {
        token: requester.token,
        body: ticket(change),
      });
      expect([response.statusCode, response.json().message]).toEqual([422, message]);
    }
    const mails = await t.mailer.recent(200);
    expect(mails.some((m) => /[\r\n]/.test(m.subject))).toBe(false);
  });

  it("takes only the caller's own uploads no ticket has taken, and keeps nothing when one is not", async () => {
    const othersUpload = (await upload(other, 'theirs.txt', Buffer.from('theirs'))).json().token;
    const before = await t.db.select().from(supportTickets);
    const response = await t.call('POST', '/api/support/create', {
      token: requester.token,
      body: ticket({ subject: 'Uses another upload', attachments: [othersUpload] }),
    });
    expect([response.statusCode, response.json().message]).toEqual([422, supportMessages.unknownAttachment]);
    expect(await t.db.select().from(supportTickets)).toHaveLength(before.length);
    const [row] = await t.db
      .select()
      .from(supportAttachments)
      .where(eq(supportAttachments.token, othersUpload));
    expect(row?.ticketId).toBeNull();
  });

  it('refuses the anonymous caller', async () => {
    expect((await t.call('POST', '/api/support/create', { body: ticket() })).statusCode).toBe(401);
  });

  it('mails the superusers when BERTH_SUPPORT_EMAIL is unset', async () => {
    const withoutSetting = await testApp({ support: { emails: null, dir: path.join(supportDir, 'second') } });
    try {
      const admin = await withoutSetting.signUp({ name: 'Admin' });
      await withoutSetting.db.update(users).set({ superuser: true }).where(eq(users.id, admin.id));
      const user = await withoutSetting.signUp({ name: 'User' });
      const response = await withoutSetting.call('POST', '/api/support/create', {
        token: user.token,
        body: ticket({ priority: undefined }),
      });
      expect(response.statusCode).toBe(201);
      const mail = await withoutSetting.mailer.recent(50);
      expect(mail.find((m) => m.to === admin.email)?.subject).toMatch(
        /^Support ticket #\d+ \(normal\): Deploys are stuck$/,
      );
    } finally {
      await withoutSetting.close();
    }
  });
});

describe('the tickets and their files', () => {
  let ticketId: string;
  let attachmentUrl: string;
  let pendingUrl: string;

  beforeAll(async () => {
    const token = (await upload(requester, 'screen.png', PNG)).json().token;
    await t.call('POST', '/api/support/create', {
      token: requester.token,
      body: ticket({ subject: 'With a screenshot', attachments: [token] }),
    });
    const list = (await t.call('GET', '/api/support/tickets', { token: requester.token })).json();
    const found = list._embedded.support_tickets.find(
      (item: { subject: string }) => item.subject === 'With a screenshot',
    );
    ticketId = found.id;
    attachmentUrl = new URL(found.attachments[0]._links.download.href).pathname;
    const pending = (await upload(requester, 'later.txt', Buffer.from('not sent yet'))).json().token;
    const [row] = await t.db.select().from(supportAttachments).where(eq(supportAttachments.token, pending));
    pendingUrl = `/api/support/attachments/${row?.id}`;
  });

  it("lists the requester's own tickets, newest first, paged", async () => {
    const response = await t.call('GET', '/api/support/tickets', { token: requester.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body._embedded.support_tickets[0]).toMatchObject({
      id: ticketId,
      _type: 'support_ticket',
      subject: 'With a screenshot',
      priority: 'high',
      attachments: [{ file_name: 'screen.png', media_type: 'image/png', size: PNG.length }],
      _links: { user: { href: `http://berth.test/auth/users/${requester.id}` } },
    });
    const paged = (await t.call('GET', '/api/support/tickets?per_page=1', { token: requester.token })).json();
    expect(paged._embedded.support_tickets).toHaveLength(1);
    expect(paged.total_count).toBe(body.total_count);
    expect(paged._links.next.href).toContain('page=2');
    // Nobody else's tickets, the superuser's list included.
    for (const user of [other, staff]) {
      const theirs = (await t.call('GET', '/api/support/tickets', { token: user.token })).json();
      expect(theirs._embedded.support_tickets.map((item: { id: string }) => item.id)).not.toContain(ticketId);
    }
    expect((await t.call('GET', '/api/support/tickets')).statusCode).toBe(401);
  });

  it('shows a ticket to its requester and superusers only', async () => {
    const url = `/api/support/tickets/${ticketId}`;
    expect((await t.call('GET', url, { token: requester.token })).statusCode).toBe(200);
    expect((await t.call('GET', url, { token: staff.token })).json().subject).toBe('With a screenshot');
    expect((await t.call('GET', url, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', url)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/support/tickets/987654', { token: staff.token })).statusCode).toBe(404);
  });

  it('serves a file as a download to the requester and superusers, to nobody else', async () => {
    for (const user of [requester, staff]) {
      const response = await t.call('GET', attachmentUrl, { token: user.token });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.equals(PNG)).toBe(true);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="screen.png"; filename*=UTF-8''screen.png`,
      );
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
    expect((await t.call('GET', attachmentUrl, { token: other.token })).statusCode).toBe(404);
    expect((await t.call('GET', attachmentUrl)).statusCode).toBe(401);
    // An upload no ticket has taken is its uploader's alone.
    expect((await t.call('GET', pendingUrl, { token: requester.token })).statusCode).toBe(200);
    expect((await t.call('GET', pendingUrl, { token: staff.token })).statusCode).toBe(404);
  });
});
