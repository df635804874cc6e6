import { describe, expect, it } from 'vitest';
import {
  createOrganizationSchema,
  emailSchema,
  loginSchema,
  personNameSchema,
  signupSchema,
} from './identity.schema.ts';
import {
  isValidEmail,
  type LoginFields,
  loginProblems,
  passwordMessages,
  passwordProblems,
  requiredMessage,
  verificationMessages,
} from './identity-rules.ts';

const messages = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('password rules (spec 1 §5)', () => {
  it.each([
    ['Abcdefgh1!', []],
    ['Abcdefghij', [passwordMessages.digitOrSpecial]],
    ['Abcdefgh(x', []],
    ['Abc1', [passwordMessages.tooShort]],
    ['abcdefghij1', [passwordMessages.uppercase]],
    ['ABCDEFGHIJ1', [passwordMessages.lowercase]],
    [
      '',
      [
        passwordMessages.tooShort,
        passwordMessages.uppercase,
        passwordMessages.lowercase,
        passwordMessages.digitOrSpecial,
      ],
    ],
  ])('%j → %j', (password, expected) => {
    expect(passwordProblems(password)).toEqual(expected);
  });

  it('counts the 72-byte limit in bytes, not characters', () => {
    expect(passwordProblems(`Aa1${'x'.repeat(69)}`)).toEqual([]); // exactly 72 bytes
    expect(passwordProblems(`Aa1${'x'.repeat(70)}`)).toEqual(['Too long: Passwords are limited to 72 bytes']);
    expect(passwordProblems(`Aa1${'é'.repeat(35)}`)).toEqual(['Too long: Passwords are limited to 72 bytes']);
  });

  it('has the spec’s literal messages', () => {
    expect(passwordMessages.tooLong).toBe('Too long: Passwords are limited to 72 bytes');
    expect(passwordMessages.mismatch).toBe('Passwords do not match');
  });
});

describe('email', () => {
  it.each([
    ['', 'Email must not be empty'],
    ['   ', 'Email must not be empty'],
    ['plain', 'Must provide valid email'],
    ['a@b', 'Must provide valid email'],
    ['a b@c.io', 'Must provide valid email'],
  ])('%j → %s', (value, message) => {
    expect(messages(emailSchema.safeParse(value))).toEqual([message]);
  });

  it('trims and lower-cases a valid address', () => {
    expect(emailSchema.parse('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('refuses addresses over 254 characters and empty domain labels, and stays fast on hostile input', () => {
    const longest = `${'a'.repeat(64)}@${'b'.repeat(184)}.test`;
    expect(longest).toHaveLength(254);
    expect(emailSchema.safeParse(longest).success).toBe(true);
    expect(messages(emailSchema.safeParse(`a${longest}`))).toEqual(['Must provide valid email']);
    for (const bad of ['a@.b.c', 'a@b..c', 'a@b.c.', 'a@@b.c']) {
      expect(messages(emailSchema.safeParse(bad)), bad).toEqual(['Must provide valid email']);
    }
    // The sign-up attack of the hostile-input issue: quadratic with the old pattern, one message now.
    expect(isValidEmail(`a@${'.'.repeat(100_000)}@`)).toBe(false);
    expect(messages(emailSchema.safeParse(`a@${'.'.repeat(1_000_000)}@`))).toEqual([
      'Must provide valid email',
    ]);
  });
});

describe('names and required fields', () => {
  it('allows letters, digits and whitespace only', () => {
    expect(personNameSchema().safeParse('Zoë Ångström 3rd').success).toBe(true);
    expect(messages(personNameSchema().safeParse('Robert"); DROP'))).toEqual(['Cannot have symbols in name']);
    expect(messages(personNameSchema().safeParse(''))).toEqual(['Name must not be empty']);
  });

  it('builds "{label} must not be empty"', () => {
    expect(requiredMessage('Company')).toBe('Company must not be empty');
  });
});

describe('form schemas', () => {
  it('login needs a valid email and a password', () => {
    expect(messages(loginSchema.safeParse({ email: '', password: '' }))).toEqual([
      'Email must not be empty',
      'Password must not be empty',
    ]);
  });

  it('login rules without zod say what loginSchema says, field by field', () => {
    const cases: LoginFields[] = [
      { email: '', password: '' },
      { email: '   ', password: 'x' },
      { email: 'not-an-email', password: 'x' },
      { email: `${'a'.repeat(250)}@example.com`, password: 'x' },
      { email: 'ada@example.com', password: 'x'.repeat(1025) },
      { email: 'ada@example.com', password: 'x', otpToken: '1'.repeat(257) },
      { email: ' Ada@Example.com ', password: 'x', otpToken: '123456' },
    ];
    for (const values of cases) {
      const parsed = loginSchema.safeParse(values);
      const fromSchema = Object.fromEntries(
        (parsed.error?.issues ?? []).map((issue) => [String(issue.path[0]), issue.message]),
      );
      expect(loginProblems(values)).toEqual(fromSchema);
    }
    expect(loginProblems({ email: 'not-an-email', password: '' })).toEqual({
      email: 'Must provide valid email',
      password: 'Password must not be empty',
    });
    expect(loginSchema.parse({ email: ' Ada@Example.com ', password: 'x' }).email).toBe('ada@example.com');
  });

  it('sign-up needs a company unless it comes from an invitation', () => {
    const base = { name: 'Ada', email: 'ada@example.com', password: 'Abcdefgh1!' };
    expect(messages(signupSchema().safeParse({ ...base, company: '' }))).toEqual([
      'Company must not be empty',
    ]);
    expect(signupSchema({ fromInvitation: true }).safeParse({ ...base, company: '' }).success).toBe(true);
  });

  it('create organization needs a name', () => {
    expect(messages(createOrganizationSchema.safeParse({ name: ' ' }))).toEqual(['Name must not be empty']);
    expect(createOrganizationSchema.parse({ name: ' Acme ' })).toEqual({ name: 'Acme' });
  });
});

describe('verification messages', () => {
  it('tells an unverified account to verify before changing anything', () => {
    expect(verificationMessages.required).toBe('Verify your email address before making changes.');
  });
});
