import { describe, expect, it } from 'vitest';
import { createAppSchema, createServiceDefinitionSchema, duplicateAppHandleMessage } from './app.schema.ts';

describe('app bodies (spec 2 §5)', () => {
  it('validates the handle like every handle and drops account_id', () => {
    expect(createAppSchema.parse({ handle: 'web-app', account_id: '7' })).toEqual({ handle: 'web-app' });
    expect(createAppSchema.safeParse({ handle: 'Web App' }).error?.issues[0]?.message).toBe(
      'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
    );
    expect(createAppSchema.safeParse({}).error?.issues[0]?.message).toBe('Handle must not be empty');
  });

  it('names the duplicate handle', () => {
    expect(duplicateAppHandleMessage('web')).toBe(
      'An app with the handle "web" already exists in this environment',
    );
  });

  it.each([
    [
      { process_type: 'web', command: 'npm start' },
      { process_type: 'web', command: 'npm start' },
    ],
    [{ process_type: ' worker ' }, { process_type: 'worker', command: '' }],
    [
      { process_type: 'cron', command: null },
      { process_type: 'cron', command: '' },
    ],
  ])('accepts service definition %j', (body, parsed) => {
    expect(createServiceDefinitionSchema.parse(body)).toEqual(parsed);
  });

  it('requires a process type', () => {
    expect(createServiceDefinitionSchema.safeParse({ command: 'x' }).error?.issues[0]?.message).toBe(
      'Process type must not be empty',
    );
  });
});
