import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// The identity rules as plain functions, without zod: the login page runs them itself, so it loads no
// schema library (issue 11), and identity.schema.ts builds the schemas the server uses from the same
// functions, so the two cannot drift apart.

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

// A pragmatic address check: one @, no spaces, dot-separated labels in the domain. The mail link proves
// the rest. Labels exclude the dot, so there is one way to match and no backtracking on long input.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export function isValidEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= MAX_LENGTH.email && EMAIL_PATTERN.test(address);
}

/** An address as stored and compared: trimmed, lower case. */
export function normalizedEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** What is wrong with an email address as typed, or null. */
export function emailProblem(value: string): string | null {
  // Over-long input is refused before the pattern runs (issue 15).
  if (value.length > MAX_LENGTH.email) return emailMessages.invalid;
  if (value.trim() === '') return emailMessages.empty;
  return isValidEmail(value) ? null : emailMessages.invalid;
}

/** The password at login: any text, but not none and not absurdly long. */
export function loginPasswordProblem(value: string): string | null {
  if (value.length > MAX_LENGTH.password) return tooLongMessage('Password', MAX_LENGTH.password);
  return value === '' ? requiredMessage('Password') : null;
}

/** The 2FA code at login (optional; its own check tells right from wrong). */
export function loginCodeProblem(value: string): string | null {
  return value.length > MAX_LENGTH.code ? tooLongMessage('The code', MAX_LENGTH.code) : null;
}

export interface LoginFields {
  email: string;
  password: string;
  otpToken?: string;
}

/** Every login field's problem (the login form's rules, as loginSchema states them for the server). */
export function loginProblems(values: LoginFields): Partial<Record<keyof LoginFields, string>> {
  const problems: Partial<Record<keyof LoginFields, string>> = {};
  const email = emailProblem(values.email);
  if (email) problems.email = email;
  const password = loginPasswordProblem(values.password);
  if (password) problems.password = password;
  const code = values.otpToken === undefined ? null : loginCodeProblem(values.otpToken);
  if (code) problems.otpToken = code;
  return problems;
}
