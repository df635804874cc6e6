import { generateKeyPairSync } from 'node:crypto';
import { sshKeyMessages } from '@berth/core';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

function publicKeyLine(
  type: 'ed25519' | 'rsa' | 'ec' | 'dsa',
  comment = 'me@example.com',
  bits = 2048,
): string {
  const pair =
    type === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: bits })
      : type === 'ec'
        ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
        : type === 'dsa'
          ? generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 })
          : generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

async function addKey(user: TestUser, body: unknown, token?: string) {
  return t.call('POST', `/auth/users/${user.id}/ssh_keys`, { token: token ?? (await t.elevate(user)), body });
}

describe('SSH keys', () => {
  it('adds an ed25519 key with its fingerprints, lists it and deletes it', async () => {
    const user = await t.signUp();
    const line = publicKeyLine('ed25519');
    const added = await addKey(user, { name: 'Laptop', ssh_public_key: `  ${line}\n` });
    expect(added.statusCode).toBe(201);
    const key = added.json();
    expect(key).toMatchObject({ _type: 'ssh_key', name: 'Laptop', ssh_public_key: line });
    expect(key.sha256_fingerprint).toMatch(/^SHA256:/);
    expect(key.md5_fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    expect(key.public_key_fingerprint).toBe(key.md5_fingerprint);

    const list = await t.call('GET', `/auth/users/${user.id}/ssh_keys`, { token: user.token });
    expect(list.statusCode).toBe(200);
    expect(list.json()._embedded.ssh_keys.map((k: { id: string }) => k.id)).toEqual([key.id]);

    const deleted = await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: await t.elevate(user) });
    expect(deleted.statusCode).toBe(204);
    const after = await t.call('GET', `/auth/users/${user.id}/ssh_keys`, { token: user.token });
    expect(after.json()._embedded.ssh_keys).toEqual([]);
  });

  it('accepts ECDSA and RSA of 2048 bits', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    expect(
      (await addKey(user, { name: 'ec', ssh_public_key: publicKeyLine('ec') }, elevated)).statusCode,
    ).toBe(201);
    expect(
      (await addKey(user, { name: 'rsa', ssh_public_key: publicKeyLine('rsa') }, elevated)).statusCode,
    ).toBe(201);
  });

  it('refuses short RSA, DSA, garbage and private keys with clear messages', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const cases: [string, string][] = [
      [publicKeyLine('rsa', 'x', 1024), sshKeyMessages.rsaTooShort(1024)],
      [publicKeyLine('dsa'), sshKeyMessages.dsaRefused],
      ['ssh-ed25519 AAAAnotakey', sshKeyMessages.notAKey],
      ['hello world', sshKeyMessages.notAKey],
      [`${publicKeyLine('ed25519')}\n${publicKeyLine('ed25519')}`, sshKeyMessages.notAKey],
      [
        '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
        sshKeyMessages.privateKey,
      ],
    ];
    for (const [text, message] of cases) {
      const response = await addKey(user, { name: 'bad', ssh_public_key: text }, elevated);
      expect(response.statusCode, text).toBe(422);
      expect(response.json()).toMatchObject({ error: 'unprocessable_entity', message });
    }
  });

  it('checks the length before anything else and needs a name', async () => {
    const user = await t.signUp();
    const elevated = await t.elevate(user);
    const long = await addKey(
      user,
      { name: 'big', ssh_public_key: `ssh-ed25519 ${'A'.repeat(20_000)}` },
      elevated,
    );
    expect(long.statusCode).toBe(422);
    expect(long.json().message).toBe(sshKeyMessages.keyTooLong);
    const unnamed = await addKey(user, { name: ' ', ssh_public_key: publicKeyLine('ed25519') }, elevated);
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().message).toBe('Name must not be empty');
  });

  it('refuses the same key twice for one user, but lets another user add it', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const line = publicKeyLine('ed25519');
    expect((await addKey(user, { name: 'First', ssh_public_key: line })).statusCode).toBe(201);
    // Another comment does not make it another key.
    const again = await addKey(user, { name: 'Second', ssh_public_key: line.replace('me@example.com', 'x') });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(sshKeyMessages.duplicate('First'));
    expect((await addKey(other, { name: 'Mine', ssh_public_key: line })).statusCode).toBe(201);
  });

  it('denies: no token, a non-elevated token, another user, deleting another user’s key', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const body = { name: 'k', ssh_public_key: publicKeyLine('ed25519') };
    const anonymous = await t.call('POST', `/auth/users/${user.id}/ssh_keys`, { body });
    expect(anonymous.statusCode).toBe(401);
    expect((await t.call('GET', `/auth/users/${user.id}/ssh_keys`)).statusCode).toBe(401);
    const plain = await t.call('POST', `/auth/users/${user.id}/ssh_keys`, { token: user.token, body });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().error).toBe('access_denied');
    const foreign = await addKey(user, body, await t.elevate(other));
    expect(foreign.statusCode).toBe(404);
    expect((await t.call('GET', `/auth/users/${user.id}/ssh_keys`, { token: other.token })).statusCode).toBe(
      404,
    );

    const key = (await addKey(user, body)).json();
    const stolen = await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: await t.elevate(other) });
    expect(stolen.statusCode).toBe(404);
    expect((await t.call('DELETE', `/auth/ssh_keys/${key.id}`)).statusCode).toBe(401);
    const list = await t.call('GET', `/auth/users/${user.id}/ssh_keys`, { token: user.token });
    expect(list.json()._embedded.ssh_keys).toHaveLength(1);
  });

  // spec 1 §7 "DELETE /ssh_keys/{id} (elevated)": taking a key away changes who may push and open
  // sessions, as adding one does, so a stolen session token alone cannot do it.
  it('deletes a key only with an elevated token: 403 with the session token, and the key stays', async () => {
    const user = await t.signUp();
    const key = (await addKey(user, { name: 'k', ssh_public_key: publicKeyLine('ed25519') })).json();
    const plain = await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: user.token });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().error).toBe('access_denied');
    const list = await t.call('GET', `/auth/users/${user.id}/ssh_keys`, { token: user.token });
    expect(list.json()._embedded.ssh_keys.map((k: { id: string }) => k.id)).toEqual([key.id]);
    const elevated = await t.call('DELETE', `/auth/ssh_keys/${key.id}`, { token: await t.elevate(user) });
    expect(elevated.statusCode).toBe(204);
  });
});
