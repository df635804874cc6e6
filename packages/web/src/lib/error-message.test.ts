import { describe, expect, it } from 'vitest';
import { messageOf } from './error-message.ts';

describe('messageOf', () => {
  it.each([
    [new Error('Membership not found'), 'Membership not found'],
    ['plain text', 'plain text'],
    [42, '42'],
  ])('%j reads %j', (error, expected) => {
    expect(messageOf(error)).toBe(expected);
  });
});
