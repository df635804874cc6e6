import { describe, expect, it } from 'vitest';
import { lastUrlSegment, numericIdFromReference } from './references.ts';

describe('references (contract §1.7, §1.9)', () => {
  it.each([
    ['abc-123', 'abc-123'],
    ['http://berth.test/auth/roles/abc-123', 'abc-123'],
    ['http://berth.test/auth/roles/abc-123//', 'abc-123'],
    ['', ''],
    ['/', ''],
  ])('the last segment of %j is %j', (reference, segment) => {
    expect(lastUrlSegment(reference)).toBe(segment);
  });

  it.each([
    ['7', '7'],
    ['http://berth.test/api/certificates/42/', '42'],
    ['123456789012345', '123456789012345'],
    ['1234567890123456', null],
    ['http://berth.test/api/certificates/abc', null],
    ['http://berth.test/api/certificates/', null],
    ['-1', null],
    ['', null],
  ])('the numeric id of %j is %j', (reference, id) => {
    expect(numericIdFromReference(reference)).toBe(id);
  });
});
