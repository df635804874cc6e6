import { describe, expect, it } from 'vitest';
import { delimitedBlocks, trimChar, trimEndChar } from './text.ts';

describe('text helpers', () => {
  it('trims a character from the end or both ends', () => {
    expect(trimEndChar('https://a.test///', '/')).toBe('https://a.test');
    expect(trimEndChar('///', '/')).toBe('');
    expect(trimEndChar('abc', '/')).toBe('abc');
    expect(trimChar('--web-app--', '-')).toBe('web-app');
    expect(trimChar('----', '-')).toBe('');
  });

  it('stays linear on a long run that does not end the string', () => {
    const hostile = `${'/'.repeat(200_000)}x`;
    expect(trimEndChar(hostile, '/')).toBe(hostile);
    expect(trimChar(`${'-'.repeat(200_000)}x${'-'.repeat(3)}`, '-')).toBe('x');
  });

  it('finds delimited blocks in order, ignoring an unclosed one', () => {
    const text = 'junk <a>1</a> mid <a>2</a> tail <a>3';
    expect(delimitedBlocks(text, '<a>', '</a>')).toEqual(['<a>1</a>', '<a>2</a>']);
    expect(delimitedBlocks('none here', '<a>', '</a>')).toEqual([]);
  });
});
