import { describe, expect, it } from 'vitest';
import { accountDeletionAllowed, organizationSettingsSchema, US_STATES } from './organization.schema.ts';

const valid = {
  name: 'Analytical Engines',
  address: '',
  city: '',
  state: 'N/A',
  zip: '',
  primaryPhone: '',
  emergencyPhone: '',
  securityAlertEmail: '',
  opsAlertEmail: '',
};

function messages(input: Partial<typeof valid>): Record<string, string> {
  const result = organizationSettingsSchema.safeParse({ ...valid, ...input });
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
}

describe('organizationSettingsSchema (spec 1 §5)', () => {
  it.each([
    [{ name: '  ' }, { name: 'Name must not be empty' }],
    [{ securityAlertEmail: 'not-an-email' }, { securityAlertEmail: 'Must provide valid email' }],
    [{ opsAlertEmail: 'ops@' }, { opsAlertEmail: 'Must provide valid email' }],
    [{}, {}],
    [{ securityAlertEmail: 'sec@example.com', opsAlertEmail: 'ops@example.com' }, {}],
  ])('%j gives %j', (input, expected) => {
    expect(messages(input)).toEqual(expected);
  });

  it('trims the values', () => {
    expect(organizationSettingsSchema.parse({ ...valid, name: ' Acme ', city: ' Boston ' })).toMatchObject({
      name: 'Acme',
      city: 'Boston',
    });
  });
});

describe('US_STATES (spec 1 §3)', () => {
  it('starts with N/A and holds the states, DC and the territories once each', () => {
    expect(US_STATES[0]).toEqual({ code: 'N/A', name: 'N/A' });
    const codes = US_STATES.map((state) => state.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual(expect.arrayContaining(['CA', 'NY', 'DC', 'PR', 'GU', 'VI', 'AS', 'MP', 'WY']));
  });
});

describe('accountDeletionAllowed (spec 1 §4)', () => {
  it.each([
    [{ typedName: 'Acme', organizationName: 'Acme', billableStacks: 0 }, true],
    [{ typedName: 'acme', organizationName: 'Acme', billableStacks: 0 }, false],
    [{ typedName: '', organizationName: 'Acme', billableStacks: 0 }, false],
    [{ typedName: 'Acme', organizationName: 'Acme', billableStacks: 1 }, false],
    [{ typedName: '', organizationName: '', billableStacks: 0 }, false],
  ])('%j is %s', (input, expected) => {
    expect(accountDeletionAllowed(input)).toBe(expected);
  });
});
