import { describe, expect, it } from 'vitest';
import { ScimError } from './scim-errors.ts';
import { MAX_FILTER_LENGTH, parseFilter } from './scim-filter.ts';

/** The scimType and detail a filter is refused with. */
function refusal(text: string) {
  try {
    parseFilter(text);
  } catch (error) {
    if (error instanceof ScimError) return { status: error.status, scimType: error.scimType };
    throw error;
  }
  throw new Error(`"${text}" was accepted`);
}

describe('the SCIM filter parser', () => {
  it('reads the comparisons identity providers send, attribute names without regard to case', () => {
    expect(parseFilter('userName eq "ada@example.com"')).toEqual({
      kind: 'compare',
      path: { schema: null, name: 'username', sub: null },
      operator: 'eq',
      value: 'ada@example.com',
    });
    expect(parseFilter('EXTERNALID Eq "x-1"')).toMatchObject({
      operator: 'eq',
      path: { name: 'externalid' },
    });
    expect(parseFilter('urn:ietf:params:scim:schemas:core:2.0:User:name.givenName sw "Ad"')).toEqual({
      kind: 'compare',
      path: { schema: 'urn:ietf:params:scim:schemas:core:2.0:User', name: 'name', sub: 'givenname' },
      operator: 'sw',
      value: 'Ad',
    });
    expect(parseFilter('active eq false')).toMatchObject({ value: false });
    expect(parseFilter('externalId pr')).toEqual({
      kind: 'present',
      path: { schema: null, name: 'externalid', sub: null },
    });
  });

  it('reads escapes inside strings', () => {
    expect(parseFilter('displayName eq "say \\"hi\\" \\\\ \\u00e9"')).toMatchObject({
      value: 'say "hi" \\ é',
    });
  });

  it('refuses an escaped NUL, which PostgreSQL text cannot hold', () => {
    expect(refusal('userName eq "a\\u0000b"')).toEqual({ status: 400, scimType: 'invalidFilter' });
    expect(refusal('members[value eq "\\u0000"]')).toEqual({ status: 400, scimType: 'invalidFilter' });
  });

  it('binds and tighter than or, and reads parentheses and value paths', () => {
    expect(parseFilter('a eq "1" or b eq "2" and c eq "3"')).toMatchObject({
      kind: 'or',
      left: { kind: 'compare', path: { name: 'a' } },
      right: { kind: 'and', left: { path: { name: 'b' } }, right: { path: { name: 'c' } } },
    });
    expect(parseFilter('(a eq "1" or b eq "2") and c eq "3"')).toMatchObject({
      kind: 'and',
      left: { kind: 'or' },
    });
    // Entra asks whether a user is in a group this way.
    expect(parseFilter('id eq "g1" and members[value eq "u1"]')).toMatchObject({
      kind: 'and',
      right: {
        kind: 'valuePath',
        path: { name: 'members' },
        filter: { kind: 'compare', path: { name: 'value' }, value: 'u1' },
      },
    });
  });

  it.each([
    ['userName gt "a"'],
    ['userName le "a"'],
    ['not (userName eq "a")'],
    ['userName eq'],
    ['userName "a"'],
    ['userName xx "a"'],
    ['userName eq a'],
    ['userName eq "unterminated'],
    ['(userName eq "a"'],
    ['userName eq "a")'],
    ['userName eq "a" and'],
    ['userName eq "a" userName'],
    ['eq "a"'],
    [''],
    ['   '],
    ['userName eq "a" ; drop table users'],
    ['user..name eq "a"'],
    ['name.given.more eq "a"'],
    ['"a" eq userName'],
    ['members[value eq "a"'],
  ])('refuses %j as 400 invalidFilter, never a 500', (text) => {
    expect(refusal(text)).toEqual({ status: 400, scimType: 'invalidFilter' });
  });

  it('bounds the text, the comparisons and the nesting before they cost anything', () => {
    expect(refusal(`userName eq "${'a'.repeat(MAX_FILTER_LENGTH)}"`)).toEqual({
      status: 400,
      scimType: 'invalidFilter',
    });
    const many = Array.from({ length: 21 }, (_, i) => `a eq "${i}"`).join(' or ');
    expect(refusal(many)).toEqual({ status: 400, scimType: 'invalidFilter' });
    expect(refusal(`${'('.repeat(20)}a eq "1"${')'.repeat(20)}`)).toEqual({
      status: 400,
      scimType: 'invalidFilter',
    });
  });

  it('scans hostile text in linear time', () => {
    const started = performance.now();
    for (const text of ['"'.repeat(999), `a eq "${'\\'.repeat(990)}`, '('.repeat(999), 'a '.repeat(499)]) {
      expect(refusal(text).scimType).toBe('invalidFilter');
    }
    expect(performance.now() - started).toBeLessThan(200);
  });
});
