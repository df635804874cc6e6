import { describe, expect, it } from 'vitest';
import { billingAddress, isTrialActive, isUsZipCode, trialExpiryWarning } from './billing.ts';

const trial = { range_begin: '2026-11-01T00:00:00.000Z', range_end: '2026-11-15T00:00:00.000Z' };
const active = { deactivated_at: null };
const deactivated = { deactivated_at: '2026-11-03T00:00:00.000Z' };

describe('trials (spec 1 §7)', () => {
  it('counts a trial active while now is between range_begin and range_end, ends included', () => {
    expect(isTrialActive(trial, new Date('2026-10-31T23:59:59.999Z'))).toBe(false);
    expect(isTrialActive(trial, new Date(trial.range_begin))).toBe(true);
    expect(isTrialActive(trial, new Date('2026-11-08T12:00:00.000Z'))).toBe(true);
    expect(isTrialActive(trial, new Date(trial.range_end))).toBe(true);
    expect(isTrialActive(trial, new Date('2026-11-15T00:00:00.001Z'))).toBe(false);
  });

  it('warns of the expiry while a trial runs without an active payment source', () => {
    const now = new Date('2026-11-10T00:00:00.000Z');
    expect(trialExpiryWarning([trial], [], now)).toEqual({ endsAt: trial.range_end });
    expect(trialExpiryWarning([trial], [deactivated], now)).toEqual({ endsAt: trial.range_end });
    expect(trialExpiryWarning([trial], [deactivated, active], now)).toBeNull();
    expect(trialExpiryWarning([trial], [], new Date('2026-11-16T00:00:00.000Z'))).toBeNull();
    expect(trialExpiryWarning([], [], now)).toBeNull();
    const longer = { range_begin: '2026-11-05T00:00:00.000Z', range_end: '2026-12-05T00:00:00.000Z' };
    expect(trialExpiryWarning([trial, longer], [], now)).toEqual({ endsAt: longer.range_end });
  });
});

describe('the billing address (spec 1 §4 payment form)', () => {
  const us = { street_one: '1 Main St', city: 'Springfield', state: 'IL', post_code: '62701', country: 'US' };
  const messages = (value: unknown) =>
    billingAddress.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

  it('takes a US address with a state and a 5 or 5+4 digit zip code, and any other country’s', () => {
    expect(messages(us)).toEqual([]);
    expect(messages({ ...us, post_code: '62701-1234' })).toEqual([]);
    expect(messages({ ...us, country: 'FR', state: 'N/A', post_code: '75001 CEDEX' })).toEqual([]);
  });

  it("refuses what the spec's form refuses, with its messages", () => {
    expect(messages({ ...us, state: 'N/A' })).toEqual(['state / province / district is required']);
    expect(messages({ ...us, state: undefined })).toEqual(['state / province / district is required']);
    expect(messages({ ...us, post_code: '6270' })).toEqual(['invalid zip code']);
    expect(messages({ ...us, post_code: '62701-12' })).toEqual(['invalid zip code']);
    expect(messages({ ...us, street_one: '  ' })).toEqual(['Street address must not be empty']);
    expect(messages({ ...us, city: '' })).toEqual(['City must not be empty']);
    expect(messages({ ...us, country: '' })).toEqual(['Country must not be empty']);
    expect(messages({ ...us, post_code: '' })).toContain('Zip code must not be empty');
    expect(messages({ ...us, city: 'x'.repeat(201) })).toEqual(['City must be at most 200 characters']);
  });

  it('reads at most ten characters of a zip code', () => {
    expect(isUsZipCode('12345-6789')).toBe(true);
    expect(isUsZipCode(`12345${'0'.repeat(100_000)}`)).toBe(false);
  });
});
