import { describe, expect, it } from 'vitest';
import {
  createEnvironmentSchema,
  handleSchema,
  renameEnvironmentSchema,
  updateEnvironmentSchema,
} from './environment.schema.ts';

describe('handles (spec 2 §5)', () => {
  it.each(['prod', 'my-app_2.v1', 'a'.repeat(64)])('accepts %s', (handle) => {
    expect(handleSchema.safeParse(handle).success).toBe(true);
  });

  it.each([
    ['', 'Handle must not be empty'],
    ['Prod', 'Handle may contain only lowercase letters, digits, periods, hyphens and underscores'],
    ['a b', 'Handle may contain only lowercase letters, digits, periods, hyphens and underscores'],
    ['a'.repeat(65), 'Handle must be at most 64 characters'],
  ])('refuses %j with "%s"', (handle, message) => {
    expect(handleSchema.safeParse(handle).error?.issues[0]?.message).toBe(message);
  });

  it('defaults type and onboarding status for a new environment', () => {
    expect(createEnvironmentSchema.parse({ handle: 'x', organization_id: 'o', stack_id: 3 })).toEqual({
      handle: 'x',
      organization_id: 'o',
      type: 'development',
      onboarding_status: 'initiated',
      stack_id: '3',
    });
  });
});

describe('updateEnvironmentSchema (contract §5.6)', () => {
  it('takes a handle or an onboarding status', () => {
    expect(updateEnvironmentSchema.parse({ handle: 'renamed' })).toEqual({ handle: 'renamed' });
    expect(updateEnvironmentSchema.parse({ onboarding_status: 'completed' })).toEqual({
      onboarding_status: 'completed',
    });
  });

  it.each([
    [{}, 'Nothing to update: send a handle or an onboarding status'],
    [{ type: 'production' }, 'Nothing to update: send a handle or an onboarding status'],
    [
      { handle: 'Bad Handle' },
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    ],
    [
      { onboarding_status: 'done' },
      'Onboarding status must be one of: initiated, scanned, db_provisioned, app_provisioned, completed, unknown',
    ],
  ])('refuses %j with "%s"', (body, message) => {
    expect(updateEnvironmentSchema.safeParse(body).error?.issues[0]?.message).toBe(message);
  });
});

describe('renameEnvironmentSchema (spec 2 §2)', () => {
  it('needs a valid handle and the acknowledgment', () => {
    expect(renameEnvironmentSchema.parse({ handle: 'prod', acknowledged: true })).toEqual({
      handle: 'prod',
      acknowledged: true,
    });
    expect(
      renameEnvironmentSchema.safeParse({ handle: 'prod', acknowledged: false }).error?.issues[0]?.message,
    ).toBe('You must acknowledge the impact of renaming this environment');
    expect(
      renameEnvironmentSchema.safeParse({ handle: 'Prod', acknowledged: true }).error?.issues[0]?.message,
    ).toBe('Handle may contain only lowercase letters, digits, periods, hyphens and underscores');
  });
});
