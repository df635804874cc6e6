import { describe, expect, it } from 'vitest';
import { connectionUrl } from './connection-url.ts';

const account = { username: 'berth', password: 'p@ss/word', name: 'db' };

describe('connection URLs', () => {
  it("writes each engine's scheme, the account and the database it names", () => {
    expect(connectionUrl('postgresql', account, 'db-1.internal', 5432)).toBe(
      'postgresql://berth:p%40ss%2Fword@db-1.internal:5432/db',
    );
    expect(connectionUrl('redis', account, 'db-2.internal', 6379)).toBe(
      'redis://berth:p%40ss%2Fword@db-2.internal:6379',
    );
  });

  it("tells MongoDB's clients the account lives in the admin database", () => {
    const url = connectionUrl('mongodb', account, 'db-3.internal', 27017);
    expect(url).toBe('mongodb://berth:p%40ss%2Fword@db-3.internal:27017/db?authSource=admin');
    expect(new URL(url).searchParams.get('authSource')).toBe('admin');
  });
});
