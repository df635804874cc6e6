import { describe, expect, it } from 'vitest';
import { maskUrlPassword } from './secret-url.tsx';

describe('maskUrlPassword', () => {
  it.each([
    ['postgresql://berth:s3cret@db.internal:5432/db', 'postgresql://berth:•••@db.internal:5432/db'],
    // Redis carries a password without a user name.
    ['redis://:s3cret@cache.internal:6379', 'redis://:•••@cache.internal:6379'],
    // A password holding @ and : ends at the authority's last @.
    ['mysql://app:p@ss:w0rd@db.internal/x?ssl=true', 'mysql://app:•••@db.internal/x?ssl=true'],
    // An @ in the path or query is not user information.
    ['https://host.example/path@x?u=a:b@c', 'https://host.example/path@x?u=a:b@c'],
    ['postgresql://berth@db.internal/db', 'postgresql://berth@db.internal/db'],
    ['postgresql://berth:@db.internal/db', 'postgresql://berth:@db.internal/db'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, masked) => {
    expect(maskUrlPassword(url)).toBe(masked);
  });
});
