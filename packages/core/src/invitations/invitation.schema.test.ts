import { describe, expect, it } from 'vitest';
import {
  createInvitationSchema,
  invitationMatchesEmail,
  invitationMessages,
  inviteFormSchema,
  isInvitationExpired,
} from './invitation.schema.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('invite form (spec 1 §5: email format; a role is required)', () => {
  it.each([
    [{ email: '', roleId: 'role-1' }, ['Email must not be empty']],
    [{ email: 'not-an-email', roleId: 'role-1' }, ['Must provide valid email']],
    [{ email: 'ada@example.com', roleId: '' }, ['A role is required']],
    [{ email: 'ada@example.com', roleId: '   ' }, ['A role is required']],
    [{ email: 'ada@example.com' }, ['A role is required']],
    [{ email: '', roleId: '' }, ['Email must not be empty', 'A role is required']],
  ])('%j → %j', (input, expected) => {
    expect(messages(inviteFormSchema.safeParse(input))).toEqual(expected);
  });

  it('lower-cases the address and keeps the role', () => {
    expect(inviteFormSchema.parse({ email: ' Ada@Example.com ', roleId: 'role-1' })).toEqual({
      email: 'ada@example.com',
      roleId: 'role-1',
    });
  });

  it('validates the body of POST /roles/:id/invitations with the same email rule', () => {
    expect(createInvitationSchema.parse({ email: 'Bob@Example.com', origin: 'app' })).toEqual({
      email: 'bob@example.com',
      origin: 'app',
    });
    expect(messages(createInvitationSchema.safeParse({ email: 'bob' }))).toEqual([
      'Must provide valid email',
    ]);
  });
});

describe('invitation messages (spec 1 §8)', () => {
  it('has the spec’s literal texts', () => {
    expect(invitationMessages.notFound).toBe(
      'We could not find this invitation.  So either it never existed or was later revoked.',
    );
    expect(invitationMessages.mismatch('bob@example.com', 'ada@example.com')).toBe(
      'This invitation (bob@example.com) is not associated with your account (ada@example.com). Please log in with the correct account.',
    );
    expect(invitationMessages.expired('Analytical Engines', 'Ada Lovelace')).toBe(
      'This invitation to join Analytical Engines has expired. Please request a new invite from Ada Lovelace.',
    );
  });
});

describe('invitation expiry (spec 1 §3: derived from the code expiry date)', () => {
  const now = new Date('2026-01-10T12:00:00.000Z');
  it.each([
    ['2026-01-10T11:59:59.000Z', true],
    ['2026-01-10T12:00:00.000Z', true],
    ['2026-01-10T12:00:01.000Z', false],
    ['', false],
    [null, false],
    ['not a date', false],
  ])('%j → %s', (expiresAt, expired) => {
    expect(isInvitationExpired(expiresAt, now)).toBe(expired);
  });

  it('compares emails without case', () => {
    expect(invitationMatchesEmail('Bob@Example.com', 'bob@example.com')).toBe(true);
    expect(invitationMatchesEmail('bob@example.com', 'ada@example.com')).toBe(false);
  });
});
