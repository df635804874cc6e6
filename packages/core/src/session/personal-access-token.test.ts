import { describe, expect, it } from 'vitest';
import { gitPushCommands } from '../apps/git-remote.ts';
import {
  ciTokenName,
  MAX_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
  personalAccessTokenInput,
  personalAccessTokenMessages,
} from './personal-access-token.ts';

const messagesOf = (body: unknown) =>
  personalAccessTokenInput.safeParse(body).error?.issues.map((issue) => issue.message) ?? [];

describe('personal access token input', () => {
  it('takes a name, a scope and an expiry in days', () => {
    expect(
      personalAccessTokenInput.parse({ name: '  CI deploys ', scope: 'read', expires_in_days: 7 }),
    ).toEqual({
      name: 'CI deploys',
      scope: 'read',
      expires_in_days: 7,
    });
    expect(
      personalAccessTokenInput.safeParse({
        name: 'x',
        scope: 'manage',
        expires_in_days: MAX_PERSONAL_ACCESS_TOKEN_EXPIRY_DAYS,
      }).success,
    ).toBe(true);
  });

  it.each([
    [{ name: '', scope: 'manage', expires_in_days: 30 }, 'Name must not be empty'],
    [{ name: 'a'.repeat(101), scope: 'manage', expires_in_days: 30 }, 'Name must be at most 100 characters'],
    [{ name: 'a\u202eb', scope: 'manage', expires_in_days: 30 }, /Name/],
    [{ name: 'ci', scope: 'elevated', expires_in_days: 30 }, personalAccessTokenMessages.scope],
    [{ name: 'ci', expires_in_days: 30 }, personalAccessTokenMessages.scope],
    [{ name: 'ci', scope: 'manage', expires_in_days: 0 }, personalAccessTokenMessages.expiry],
    [{ name: 'ci', scope: 'manage', expires_in_days: 366 }, personalAccessTokenMessages.expiry],
    [{ name: 'ci', scope: 'manage', expires_in_days: 1.5 }, personalAccessTokenMessages.expiry],
    [{ name: 'ci', scope: 'manage', expires_in_days: '30' }, personalAccessTokenMessages.expiry],
    [{ name: 'ci', scope: 'manage' }, personalAccessTokenMessages.expiry],
  ])('refuses %j with its message', (body, message) => {
    const messages = messagesOf(body);
    expect(messages.length).toBeGreaterThan(0);
    if (typeof message === 'string') expect(messages).toContain(message);
    else expect(messages.some((text) => message.test(text))).toBe(true);
  });

  it('bounds a name before reading it', () => {
    // A megabyte of name is refused at its length, once, with no pattern run over it.
    expect(messagesOf({ name: 'a'.repeat(1_000_000), scope: 'manage', expires_in_days: 30 })).toEqual([
      'Name must be at most 100 characters',
    ]);
  });

  it("names the CI token after the app's environment and handle", () => {
    expect(ciTokenName('production', 'shop')).toBe('ci: production/shop');
    expect(ciTokenName('e'.repeat(80), 'a'.repeat(80))).toHaveLength(100);
  });
});

describe('git push commands', () => {
  it('adds the remote, pushes, and pushes from CI with the token from $BERTH_TOKEN', () => {
    const commands = gitPushCommands('https://berth.example.com/git/production/shop.git');
    expect(commands.addRemote).toBe('git remote add berth https://berth.example.com/git/production/shop.git');
    expect(commands.push).toBe('git push berth main');
    expect(commands.ciPush).toBe(
      `git -c credential.helper= -c credential.helper='!f() { echo username=berth; echo "password=$BERTH_TOKEN"; }; f' push https://berth.example.com/git/production/shop.git HEAD:refs/heads/main`,
    );
  });
});
