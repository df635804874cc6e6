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
