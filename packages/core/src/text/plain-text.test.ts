import { describe, expect, it } from 'vitest';
import { createAppSchema, createServiceDefinitionSchema } from '../apps/app.schema.ts';
import { handleSchema } from '../environments/environment.schema.ts';
import { createOrganizationSchema, personNameSchema } from '../identity/identity.schema.ts';
import { OPERATION_CATALOG } from '../operations/operation-types.ts';
import { organizationSettingsSchema } from '../organizations/organization.schema.ts';
import { createRoleSchema, renameRoleSchema } from '../permissions/role.schema.ts';
import { stackNameSchema } from '../stacks/stack.schema.ts';
import { plainTextMessages, plainTextProblem } from './plain-text.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);

const CONTROL = [
  'a\nb',
  'a\rb',
  'a\r\nb',
  'a\tb',
  'a\u0000b',
  'a\u007fb',
  'a\u0085b',
  'a\u2028b',
  'a\u2029b',
];
const INVISIBLE = [
  'a\u202eb', // RIGHT-TO-LEFT OVERRIDE
  'a\u202ab',
  'a\u202bb',
  'a\u202cb',
  'a\u202db',
  'a\u2066b',
  'a\u2067b',
  'a\u2068b',
  'a\u2069b',
  'a\u200eb',
  'a\u200fb',
  'a\u061cb',
  'a\u200bb', // ZERO WIDTH SPACE
  // Joiners that join nothing visible.
  '\u200cab',
  'ab\u200d',
  'a \u200d b',
  'a\u200c\u200cb',
  'a\u2060b',
  'a\ufeffb',
  'a\u00adb',
];

describe('plainTextProblem', () => {
  it('refuses control characters and line breaks', () => {
    for (const value of CONTROL) {
      expect(plainTextProblem(value, 'Name')).toBe('Name must not contain control characters or line breaks');
    }
    expect(plainTextMessages.control('Name')).toBe('Name must not contain control characters or line breaks');
  });

  it('refuses bidi controls and zero-width characters', () => {
    for (const value of INVISIBLE) {
      expect(plainTextProblem(value, 'Name')).toBe(
        'Name must not contain invisible or text-direction characters (such as zero-width spaces or right-to-left overrides)',
      );
    }
  });

  it('keeps letters of every script, punctuation and spaces', () => {
    for (const value of [
      'Acme Inc.',
      'Société Générale',
      'שלום עולם',
      'مرحبا',
      '東京株式会社',
      'Ελλάδα',
      'हिन्दी',
      'a b-c_d (e)',
      // The non-joiner inside a Persian word, the joiner in a Devanagari conjunct and in an emoji sequence.
      'می\u200cخواهم',
      'क्\u200dष',
      '👩\u200d💻 team',
      'a\u200cb',
    ]) {
      expect(plainTextProblem(value, 'Name')).toBeNull();
    }
  });

  it('stays fast on long input', () => {
    const start = performance.now();
    plainTextProblem('a'.repeat(200_000), 'Name');
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('schemas that take names, handles and refs', () => {
  const control = plainTextMessages.control;
  const invisible = plainTextMessages.invisible;

  it('organization names', () => {
    expect(messagesOf(createOrganizationSchema.safeParse({ name: 'Acme\u202eInc' }))).toEqual([
      invisible('Name'),
    ]);
    expect(messagesOf(createOrganizationSchema.safeParse({ name: 'Acme\n' }))).toEqual([control('Name')]);
    expect(createOrganizationSchema.parse({ name: ' Société 東京 ' })).toEqual({ name: 'Société 東京' });
    expect(messagesOf(organizationSettingsSchema.safeParse({ name: 'Acme\u200b' }))).toContain(
      invisible('Name'),
    );
  });

  it('role names', () => {
    expect(messagesOf(createRoleSchema.safeParse({ name: 'Admins\r\nX' }))).toEqual([control('Name')]);
    expect(messagesOf(renameRoleSchema.safeParse({ name: '\u2067Admins' }))).toEqual([invisible('Name')]);
    expect(renameRoleSchema.parse({ name: 'Développeurs' }).name).toBe('Développeurs');
  });

  it('person names', () => {
    expect(messagesOf(personNameSchema('Name').safeParse('Jane\nDoe'))).toEqual([control('Name')]);
    expect(messagesOf(personNameSchema('Name').safeParse('Jane\u202eDoe'))).toEqual([invisible('Name')]);
    expect(personNameSchema('Name').parse('Zoë Ångström')).toBe('Zoë Ångström');
  });

  it('environment, app and stack handles and process types', () => {
    expect(messagesOf(handleSchema.safeParse('web\n'))).toEqual([control('Handle')]);
    expect(messagesOf(createAppSchema.safeParse({ handle: 'web\u200b' }))).toEqual([invisible('Handle')]);
    expect(handleSchema.parse(' web ')).toBe('web');
    expect(messagesOf(stackNameSchema.safeParse('stack\r'))).toEqual([control('Stack name')]);
    expect(messagesOf(createServiceDefinitionSchema.safeParse({ process_type: 'web\nforged' }))).toEqual([
      control('Process type'),
    ]);
  });

  it('git_ref and docker_image of operations', () => {
    const deploy = OPERATION_CATALOG.app.types.deploy.body;
    expect(messagesOf(deploy.safeParse({ git_ref: 'main\n2026-01-01 INFO -- : forged' }))).toEqual([
      control('git_ref'),
    ]);
    expect(messagesOf(deploy.safeParse({ docker_image: 'nginx\u202e' }))).toEqual([
      invisible('docker_image'),
    ]);
    expect(messagesOf(OPERATION_CATALOG.app.types.scan_code.body.safeParse({ git_ref: 'main\r' }))).toContain(
      control('git_ref'),
    );
    expect(deploy.parse({ git_ref: ' feature/x ' })).toMatchObject({ git_ref: 'feature/x' });
  });

  it('checks the length before the characters', () => {
    expect(messagesOf(createOrganizationSchema.safeParse({ name: `${'\n'.repeat(300)}` }))).toEqual([
      'Name must be at most 120 characters',
    ]);
  });
});
