import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRequestMigration } from './request-migration.ts';

// The edge's start switches on the kernel's migration of queued connections (its reason: the module's
// comment); these use a file in place of /proc/sys/net/ipv4/tcp_migrate_req.

describe('ensureRequestMigration', () => {
  const dirs: string[] = [];
  const sysctl = (value: string) => {
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-sysctl-'));
    dirs.push(dir);
    const file = path.join(dir, 'tcp_migrate_req');
    fs.writeFileSync(file, value);
    return file;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('switches it on when it is off, and says so', () => {
    const file = sysctl('0\n');
    expect(ensureRequestMigration(file)).toEqual({
      state: 'switched-on',
      message:
        'Set net.ipv4.tcp_migrate_req = 1 so that endpoint changes reset no connection (the edge opens a new listening socket at each change)',
    });
    expect(fs.readFileSync(file, 'utf8')).toBe('1\n');
  });

  it('leaves it alone when it is on', () => {
    const file = sysctl('1\n');
    expect(ensureRequestMigration(file)).toEqual({ state: 'on' });
    expect(fs.readFileSync(file, 'utf8')).toBe('1\n');
  });

  it('says the kernel lacks it when there is no such setting', () => {
    expect(ensureRequestMigration(path.join(tmpdir(), 'berth-no-such-sysctl', 'tcp_migrate_req'))).toEqual({
      state: 'off',
      message:
        'This kernel cannot hand queued connections to a new listening socket (net.ipv4.tcp_migrate_req, Linux 5.14 or later): an endpoint change may reset a few connections being opened at that moment',
    });
  });

  // Even root cannot write /proc/version: it stands for a setting this server may not change.
  it.runIf(fs.existsSync('/proc/version'))('says how to set it when it cannot be written', () => {
    const result = ensureRequestMigration('/proc/version');
    expect(result.state).toBe('off');
    expect(result).toMatchObject({
      message: expect.stringMatching(
        /^Could not set net\.ipv4\.tcp_migrate_req = 1 \(.+\): an endpoint change may reset a few connections being opened at that moment\. Set it as root \(sysctl -w net\.ipv4\.tcp_migrate_req=1, and in \/etc\/sysctl\.d to keep it\)$/,
      ),
    });
  });
});
