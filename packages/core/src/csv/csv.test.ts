import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv.ts';

describe('CSV cells', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=SUM(A1)', "'=SUM(A1)"],
    ['-1+2', "'-1+2"],
    ['@cmd', "'@cmd"],
    [true, 'true'],
    [3, '3'],
    [null, ''],
  ] as const)('%j becomes %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('joins a header and rows with CRLF and ends with one', () => {
    expect(toCsv(['id', 'name'], [['1', 'Ada, Countess']])).toBe('id,name\r\n1,"Ada, Countess"\r\n');
  });
});
