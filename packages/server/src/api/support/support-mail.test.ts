import { describe, expect, it } from 'vitest';
import type { SupportTicketRow } from './support.hal.ts';
import { requesterCopyMail, subjectLine, supportTicketMail } from './support-mail.ts';

// The ticket's schema refuses line breaks in the subject; the mail's subject line is the second lock.
describe('support mail subjects', () => {
  it('are one line whatever the ticket holds', () => {
    expect(subjectLine('Help\r\nBcc: victim@example.com')).toBe('Help Bcc: victim@example.com');
    expect(subjectLine('a\u0000b\u2028c\u0085d\te')).toBe('a b c d e');
  });

  it("carry the ticket's subject, and escape it in the HTML part", () => {
    const ticket = {
      id: 7,
      userId: 'u',
      subject: '<b>Down</b>\nBcc: x@example.com',
      description: 'Everything <script>',
      email: 'ann@example.com',
      name: 'Ann',
      priority: 'urgent',
      createdAt: new Date(),
      updatedAt: new Date(),
    } satisfies SupportTicketRow;
    const details = { ticket, files: [], link: 'http://berth.test/support?ticket=7' };
    const toSupport = supportTicketMail('help@example.com', { ...details, accountEmail: 'ann@corp.example' });
    expect(toSupport.subject).toBe('Support ticket #7 (urgent): <b>Down</b> Bcc: x@example.com');
    expect(toSupport.html).not.toContain('<script>');
    expect(toSupport.html).toContain('&#60;b&#62;Down&#60;/b&#62;');
    expect(requesterCopyMail('ann@corp.example', details).subject).toBe(
      'Your support ticket #7: <b>Down</b> Bcc: x@example.com',
    );
  });
});

// Support's addresses (BERTH_SUPPORT_EMAIL) need not be superusers', who alone open others' tickets.
describe('support mail attachments', () => {
  it('say who downloads them: superusers for support, the requester from their own page', () => {
    const ticket = {
      id: 8,
      userId: 'u',
      subject: 'Logs',
      description: 'See the files',
      email: 'ann@example.com',
      name: 'Ann',
      priority: 'normal',
      createdAt: new Date(),
      updatedAt: new Date(),
    } satisfies SupportTicketRow;
    const files = [
      {
        id: 1,
        userId: 'u',
        ticketId: 8,
        token: 't',
        fileName: 'app.log',
        mediaType: 'text/plain',
        size: 12,
        storedName: 'x',
        createdAt: new Date(),
      },
    ];
    const link = 'http://berth.test/support?ticket=8';
    const toSupport = supportTicketMail('help@example.com', { ticket, files, link, accountEmail: 'a@b.c' });
    const supportLine =
      "Attachments (download them from the ticket's page, signed in as a superuser of this Berth installation):";
    expect(toSupport.text).toContain(`${supportLine}\n- app.log (text/plain, 12 bytes)`);
    expect(toSupport.html).toContain(
      '<p>Attachments (download them from the ticket&#39;s page, signed in as a superuser of this Berth installation):</p>',
    );
    const copy = requesterCopyMail('ann@corp.example', { ticket, files, link });
    expect(copy.text).toContain("Attachments (download them from the ticket's page):\n- app.log");
    expect(copy.text).not.toContain('superuser');
  });
});
