import { describe, expect, it } from 'vitest';
import {
  type EnvRowInput,
  envKeyProblems,
  envMessages,
  envRowProblems,
  formatEnvText,
  parseEnvText,
} from './env.ts';

describe('environment variable keys (spec 2 §5)', () => {
  it('reports bad keys and duplicates with the spec messages', () => {
    expect(envKeyProblems(['GOOD_1', '_ok', '1BAD', 'has-dash', 'GOOD_1'])).toEqual([
      '1BAD does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      'has-dash does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      'GOOD_1 found multiple times, must be unique',
    ]);
  });
});

describe('key=value text', () => {
  it('parses plain and quoted multiline values, skipping blanks and comments', () => {
    const text = '# database\nDATABASE_URL=postgres://x?a=b\n\nCERT="line one\nline \\"two\\""\nEMPTY=';
    expect(parseEnvText(text)).toEqual({
      entries: [
        { key: 'DATABASE_URL', value: 'postgres://x?a=b' },
        { key: 'CERT', value: 'line one\nline "two"' },
        { key: 'EMPTY', value: '' },
      ],
      problems: [],
    });
  });

  it('reports duplicates, bad keys, lines without = and unterminated quotes', () => {
    const { problems } = parseEnvText('A=1\nA=2\nbad key=3\njunk\nQ="open');
    expect(problems).toEqual([
      'A found multiple times, must be unique',
      'bad key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      'Line 4 must look like KEY=value',
      'Q has an unterminated quoted value',
    ]);
  });

  it('reads a quoted value whose line ends in a backslash, which escapes the line break', () => {
    expect(parseEnvText('A="one\\\ntwo"\nB=2').entries).toEqual([
      { key: 'A', value: 'one\\\ntwo' },
      { key: 'B', value: '2' },
    ]);
  });

  it('reads a quote left open over 256 KB of short lines in one pass (a paste, parsed at each keystroke)', () => {
    const text = `Q="open\n${'a\n'.repeat(128 * 1024)}`;
    expect(parseEnvText(text).problems).toEqual(['Q has an unterminated quoted value']);
  });

  it('round-trips through formatEnvText', () => {
    const env = { A: 'plain', B: 'two\nlines', C: 'has "quotes"' };
    const parsed = parseEnvText(formatEnvText(env));
    expect(Object.fromEntries(parsed.entries.map((e) => [e.key, e.value]))).toEqual(env);
  });
});

describe('key/value editor rows (issue 41)', () => {
  const row = (key: string, value: string, more: Partial<EnvRowInput> = {}): EnvRowInput => ({
    key,
    value,
    locked: false,
    replacing: false,
    ...more,
  });

  it('accepts filled rows, ignores blank ones and untouched locked values', () => {
    expect(envRowProblems([row('A', '1'), row('', ''), row('SECRET', '', { locked: true })])).toEqual([]);
  });

  it("reports the spec's key messages, then rows without a key or a value", () => {
    expect(
      envRowProblems([
        row('1BAD', 'x'),
        row('A', '1'),
        row('A', '2'),
        row('', 'orphan'),
        row('EMPTY', ''),
        row('SECRET', '', { locked: true, replacing: true }),
      ]),
    ).toEqual([
      envMessages.missingKey,
      '1BAD does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      'A found multiple times, must be unique',
      'EMPTY needs a value: remove the row to remove the variable',
      'Type the new value of SECRET, or keep its current value',
    ]);
  });
});
