import { describe, expect, it } from 'vitest';
import { parseResourceKey, resourceKey, searchMessages } from './search.ts';

describe('resource keys (spec 3 §2: recent resources are tracked by "type-id")', () => {
  it.each([
    ['app-42', { type: 'app', id: '42' }],
    ['database-7', { type: 'database', id: '7' }],
    ['endpoint-123456789012345', { type: 'endpoint', id: '123456789012345' }],
  ])('reads %s', (key, expected) => {
    expect(parseResourceKey(key)).toEqual(expected);
    expect(resourceKey(expected.type as 'app', expected.id)).toBe(key);
  });

  it.each([
    'app',
    'app-',
    'app-0',
    'app-01',
    'app-1x',
    'vhost-2',
    'APP-1',
    ' app-1',
    'app-1234567890123456',
    `app-${'9'.repeat(10_000)}`,
  ])('refuses %s', (key) => {
    expect(parseResourceKey(key)).toBeNull();
  });
});

describe('global search texts (spec 3 §2)', () => {
  it('are the spec’s placeholders word for word', () => {
    expect(searchMessages).toEqual({
      noResults: 'No results found for this search query.',
      noDeployments: 'No deployments found',
    });
  });
});
