import { describe, expect, it } from 'vitest';
import { dotenvMessages, MAX_DOTENV_LENGTH, parseDotenv } from './dotenv.ts';

const values = (text: string) =>
  Object.fromEntries(parseDotenv(text).entries.map((entry) => [entry.key, entry.value]));

describe('.env text (issue 38, guided deploy)', () => {
  it('reads plain, exported, commented and empty assignments', () => {
    const text = [
      '# the database',
      'DATABASE_URL=postgres://db:5432/app?sslmode=require',
      '',
      'export NODE_ENV = production',
      'GREETING=hello world # said at start',
      'COLOR=#ff0000',
      'NOTE= # only a comment',
      'EMPTY=',
      '   INDENTED=yes',
    ].join('\n');
    expect(parseDotenv(text)).toEqual({
      entries: [
        { key: 'DATABASE_URL', value: 'postgres://db:5432/app?sslmode=require' },
        { key: 'NODE_ENV', value: 'production' },
        { key: 'GREETING', value: 'hello world' },
        { key: 'COLOR', value: '#ff0000' },
        { key: 'NOTE', value: '' },
        { key: 'EMPTY', value: '' },
        { key: 'INDENTED', value: 'yes' },
      ],
      problems: [],
    });
  });

  it('reads quoted values: escapes in double quotes, single and backtick quotes literal, across lines', () => {
    const text = [
      'DOUBLE="a \\"quoted\\" word\\nnext line" # comment',
      "SINGLE='keeps \\n and # as typed'",
      'KEY="-----BEGIN KEY-----',
      'abc',
      '-----END KEY-----"',
      'TICK=`it\'s "both"`',
      'AFTER=1',
    ].join('\r\n');
    expect(values(text)).toEqual({
      DOUBLE: 'a "quoted" word\nnext line',
      SINGLE: 'keeps \\n and # as typed',
      KEY: '-----BEGIN KEY-----\nabc\n-----END KEY-----',
      TICK: 'it\'s "both"',
      AFTER: '1',
    });
  });

  it('names each line that is no assignment by its number, counting the lines of quoted values', () => {
    const { entries, problems } = parseDotenv('A="one\ntwo"\njunk\nB=2\nexport\n');
    expect(entries).toEqual([
      { key: 'A', value: 'one\ntwo' },
      { key: 'B', value: '2' },
    ]);
    expect(problems).toEqual([dotenvMessages.notAssignment(3), dotenvMessages.notAssignment(5)]);
  });

  it('gives the spec messages for repeated and malformed keys (spec 2 §5)', () => {
    expect(parseDotenv('A=1\nA=2\nbad-key=3\n1ST=4').problems).toEqual([
      'A found multiple times, must be unique',
      'bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
      '1ST does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
    ]);
  });

  it('reports a quote left open and keeps what came before it', () => {
    expect(parseDotenv('A=1\nB="never closed\nC=3')).toEqual({
      entries: [{ key: 'A', value: '1' }],
      problems: [dotenvMessages.unterminated('B')],
    });
  });

  it('refuses text over its limit whole, and a value over the variable limit', () => {
    expect(parseDotenv(`A=${'x'.repeat(MAX_DOTENV_LENGTH)}`)).toEqual({
      entries: [],
      problems: [dotenvMessages.tooLong],
    });
    expect(parseDotenv(`BIG=${'x'.repeat(32 * 1024 + 1)}\nSMALL=1`)).toEqual({
      entries: [{ key: 'SMALL', value: '1' }],
      problems: [dotenvMessages.valueTooLong('BIG')],
    });
  });

  it('reads the largest text in linear time (no rescans of an open quote)', () => {
    // An open quote followed by many lines once cost a rescan per line.
    const text = `A="${'line\n'.repeat(MAX_DOTENV_LENGTH / 5 - 1)}`;
    const started = performance.now();
    expect(parseDotenv(text).problems).toEqual([dotenvMessages.unterminated('A')]);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
