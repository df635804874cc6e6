import { describe, expect, it } from 'vitest';
import { formatDateTime } from './format-date.ts';

describe('formatDateTime', () => {
  it("shows a timestamp in the viewer's locale", () => {
    expect(formatDateTime('2025-01-15T10:00:00.000Z')).toBe(
      new Date('2025-01-15T10:00:00.000Z').toLocaleString(),
    );
  });

  it.each([[''], [null], [undefined], ['not a date']])('shows %j as the fallback', (value) => {
    expect(formatDateTime(value)).toBe('-');
    expect(formatDateTime(value, 'Never')).toBe('Never');
  });
});
