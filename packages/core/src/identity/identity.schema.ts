import { z } from 'zod';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

// spec 1 §5: password 10 to 72 bytes, an uppercase, a lowercase, and a digit or one of !@#$%^&*().
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_BYTES = 72;
export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*()';

export const passwordMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: 'Too long: Passwords are limited to 72 bytes',
  uppercase: 'Password must contain an uppercase letter',
  lowercase: 'Password must contain a lowercase letter',
  digitOrSpecial: `Password must contain a digit or a special character from ${PASSWORD_SPECIAL_CHARACTERS}`,
  mismatch: 'Passwords do not match',
} as const;

export const emailMessages = {
  empty: 'Email must not be empty',
  invalid: 'Must provide valid email',
} as const;

export const nameMessages = {
  symbols: 'Cannot have symbols in name',
} as const;

/** The server's answer (403) to a change from an account whose email address is not verified yet. */
export const verificationMessages = {
  required: 'Verify your email address before making changes.',
} as const;

/** spec 1 §5: generic required field message. */
export function requiredMessage(label: string): string {
  return `${label} must not be empty`;
}

function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

/** Every rule the password breaks, in the order the form shows them. */
export function passwordProblems(password: string): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(passwordMessages.tooShort);
  if (byteLength(password) > PASSWORD_MAX_BYTES) problems.push(passwordMessages.tooLong);
  if (!/[A-Z]/.test(password)) problems.push(passwordMessages.uppercase);
  if (!/[a-z]/.test(password)) problems.push(passwordMessages.lowercase);
  if (!/[0-9!@#$%^&*()]/.test(password)) problems.push(passwordMessages.digitOrSpecial);
  return problems;
}

export const passwordSchema = z
  .string()
  .max(MAX_LENGTH.password, { error: passwordMessages.tooLong, abort: true })
  .superRefine((value, ctx) => {
    for (const message of passwordProblems(value)) ctx.addIssue({ code: 'custom', message });
  });

// A pragmatic address check: one @, no spaces, dot-separated labels in the domain. The mail link proves
// the rest. Labels exclude the dot, so there is one way to match and no backtracking on long input.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export function isValidEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= MAX_LENGTH.email && EMAIL_PATTERN.test(address);
}

export const emailSchema = z
  .string({ error: emailMessages.empty })
  .max(MAX_LENGTH.email, { error: emailMessages.invalid, abort: true })
  .trim()
  .min(1, { error: emailMessages.empty, abort: true })
  .refine(isValidEmail, emailMessages.invalid)
  .transform((value) => value.toLowerCase());

/**
 * spec 1 §5: "Name: letters, digits and whitespace only". Whitespace is one line of it: a line break, a
 * control or an invisible character is refused before the name is trimmed (issue 15).
 */
export function personNameSchema(label = 'Name') {
  return z
    .string({ error: requiredMessage(label) })
    .max(MAX_LENGTH.text, { error: `${label} must be at most 120 characters`, abort: true })
    .superRefine(plainText(label))
    .trim()
    .min(1, { error: requiredMessage(label), abort: true })
    .max(120, { error: `${label} must be at most 120 characters`, abort: true })
    .refine((value) => /^[\p{L}\p{N}\s]+$/u.test(value), nameMessages.symbols);
}

/**
 * A required name (organization, role, company): letters of every script, but no control, line-break,
 * invisible or text-direction character, anywhere (checked before trimming; issue 15).
 */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: requiredMessage(label) })
    .max(Math.max(max, MAX_LENGTH.text), { error: `${label} must be at most ${max} characters`, abort: true })
    .superRefine(plainText(label))
    .trim()
    .min(1, requiredMessage(label))
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true });
}

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: requiredMessage('Password') })
    .max(MAX_LENGTH.password, { error: tooLongMessage('Password', MAX_LENGTH.password), abort: true })
    .min(1, requiredMessage('Password')),
  otpToken: z
    .string()
    .max(MAX_LENGTH.code, { error: tooLongMessage('The code', MAX_LENGTH.code), abort: true })
    .optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The sign-up form (spec 1 §2: name, company, email, password). Company may be skipped for invitations. */
export function signupSchema(options: { fromInvitation: boolean } = { fromInvitation: false }) {
  return z.object({
    name: personNameSchema('Name'),
    company: options.fromInvitation
      ? z
          .string()
          .max(MAX_LENGTH.text, { error: tooLongMessage('Company', MAX_LENGTH.text), abort: true })
          .trim()
          .optional()
      : requiredText('Company'),
    email: emailSchema,
    password: passwordSchema,
  });
}
export type SignupInput = z.infer<ReturnType<typeof signupSchema>>;

export const organizationNameSchema = requiredText('Name', 120);

export const createOrganizationSchema = z.object({ name: organizationNameSchema });
export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;

/** First message of a failed parse, for places that show one line. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}
