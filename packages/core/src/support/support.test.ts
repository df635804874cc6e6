import { describe, expect, it } from 'vitest';
import { hidsMessages, isVpcPeerActive } from '../stacks/stack-connections.hal.ts';
import { plainTextMessages } from '../text/plain-text.ts';
import {
  attachmentNameProblem,
  attachmentTypeMessages,
  checkAttachment,
  SUPPORT_ATTACHMENT_ACCEPT,
  sniffAttachmentType,
} from './attachment-types.ts';
import {
  canSubmitSupportTicket,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_PRIORITIES,
  supportMessages,
  supportTicketSchema,
} from './support.schema.ts';

const bytes = (...values: number[]) => new Uint8Array(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('support messages (spec 3 §8, spec 2 §8)', () => {
  it('are the spec texts, word for word', () => {
    expect(supportMessages.uploadFailed).toBe('File upload failed. Please try again.');
    expect(supportMessages.createFailed('Subject must not be empty')).toBe(
      'Error! Unable to create the support ticket: Subject must not be empty',
    );
    expect(hidsMessages.fetchFailed).toBe('Unable to fetch managed HIDS evidence.');
    expect(hidsMessages.notExposed).toBe('We cannot expose intrusion detection reports for this stack.');
  });

  it('has the priorities of spec 3 §9, normal by default', () => {
    expect(SUPPORT_PRIORITIES).toEqual(['low', 'normal', 'high', 'urgent']);
    const parsed = supportTicketSchema.parse({
      subject: 'Help',
      description: 'Please',
      email: 'A@Example.com',
      name: 'Ann',
    });
    expect(parsed).toEqual({
      subject: 'Help',
      description: 'Please',
      email: 'a@example.com',
      name: 'Ann',
      priority: 'normal',
      attachments: [],
    });
  });

  it('spec 2 §6: a VPC peer is healthy only when active', () => {
    expect(isVpcPeerActive('active')).toBe(true);
    expect(isVpcPeerActive('pending-acceptance')).toBe(false);
  });
});

describe('the ticket form (spec 3 §5: subject and message non-empty)', () => {
  it.each([
    [{ subject: 'Help', description: 'Please' }, true],
    [{ subject: ' ', description: 'Please' }, false],
    [{ subject: 'Help', description: '\n' }, false],
    [{ subject: '', description: '' }, false],
  ])('%j may be submitted: %s', (values, allowed) => {
    expect(canSubmitSupportTicket(values)).toBe(allowed);
  });

  it('keeps the subject to one plain line, checked by length first', () => {
    const base = { description: 'x', email: 'a@example.com', name: 'Ann' };
    const message = (subject: string) =>
      supportTicketSchema.safeParse({ ...base, subject }).error?.issues[0]?.message;
    expect(message('Help\r\nBcc: someone@example.com')).toBe(plainTextMessages.control('Subject'));
    expect(message('Help\u202e')).toBe(plainTextMessages.invisible('Subject'));
    expect(message(`${'\n'.repeat(300)}`)).toBe('Subject must be at most 200 characters');
  });
});

describe('attachments: by name and by content', () => {
  it('recognises the taken types from their first bytes', () => {
    expect(sniffAttachmentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(sniffAttachmentType(bytes(0xff, 0xd8, 0xff, 0xe1))).toBe('image/jpeg');
    expect(sniffAttachmentType(text('GIF89a....'))).toBe('image/gif');
    expect(sniffAttachmentType(text('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(sniffAttachmentType(text('%PDF-1.4'))).toBe('application/pdf');
    expect(sniffAttachmentType(text('2026-11-29 error: übel\n\tat line 3\r\n'))).toBe('text/plain');
    expect(sniffAttachmentType(bytes(0x7f, 0x45, 0x4c, 0x46))).toBeNull();
    expect(sniffAttachmentType(bytes(0xc3, 0x28))).toBeNull();
    expect(sniffAttachmentType(text('a\u0000b'))).toBeNull();
  });

  it('takes a file whose name and content agree', () => {
    expect(checkAttachment('Screen Shot.PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toEqual(
      {
        mediaType: 'image/png',
      },
    );
    expect(checkAttachment('app.log', text('boot\n'))).toEqual({ mediaType: 'text/plain' });
  });

  it.each([
    ['page.html', text('<html></html>'), attachmentTypeMessages.type],
    ['archive.zip', bytes(0x50, 0x4b, 0x03, 0x04), attachmentTypeMessages.type],
    ['noextension', text('hi'), attachmentTypeMessages.type],
    ['page.png', text('<html></html>'), attachmentTypeMessages.content('page.png')],
    ['report.pdf', text('not a pdf'), attachmentTypeMessages.content('report.pdf')],
    ['empty.txt', new Uint8Array(0), supportMessages.empty],
    ['a\nb.txt', text('hi'), attachmentTypeMessages.fileName],
    ['../../etc/passwd.txt', text('hi'), attachmentTypeMessages.fileName],
    [`${'a'.repeat(300)}.txt`, text('hi'), attachmentTypeMessages.fileName],
  ])('refuses %j', (name, content, problem) => {
    expect(checkAttachment(name, content)).toEqual({ problem });
  });

  it('refuses a file over the bound', () => {
    expect(checkAttachment('big.txt', new Uint8Array(SUPPORT_ATTACHMENT_MAX_BYTES + 1).fill(0x61))).toEqual({
      problem: supportMessages.tooLarge,
    });
    expect(supportMessages.tooLarge).toBe('An attachment must be at most 10 MB');
  });

  it('offers the taken extensions to the file picker', () => {
    expect(SUPPORT_ATTACHMENT_ACCEPT).toBe('.png,.jpg,.jpeg,.gif,.webp,.pdf,.txt,.log,.csv,.json');
    expect(attachmentNameProblem('notes.csv')).toBeNull();
  });
});
