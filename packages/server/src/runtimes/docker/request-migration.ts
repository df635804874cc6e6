import fs from 'node:fs';

/**
 * Caddy (2.6 and later, on Linux) opens a new SO_REUSEPORT listening socket at every configuration
 * change and closes the old one. Linux resets the connections still queued on a closed socket unless
 * `net.ipv4.tcp_migrate_req` (Linux 5.14, per network namespace) hands them to the new one: without it,
 * about one request in twenty that arrives during an endpoint change is refused with a reset.
 */
export const REQUEST_MIGRATION_SYSCTL = '/proc/sys/net/ipv4/tcp_migrate_req';

export type RequestMigration =
  | { state: 'on' }
  | { state: 'switched-on'; message: string }
  | { state: 'off'; message: string };

/**
 * Switches the kernel's migration of queued connections on for the server's network namespace when it
 * is off (the edge runs there); says what it did, or what an administrator should do.
 */
export function ensureRequestMigration(file = REQUEST_MIGRATION_SYSCTL): RequestMigration {
  let current: string;
  try {
    current = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return {
      state: 'off',
      message:
        'This kernel cannot hand queued connections to a new listening socket (net.ipv4.tcp_migrate_req, Linux 5.14 or later): an endpoint change may reset a few connections being opened at that moment',
    };
  }
  if (current === '1') return { state: 'on' };
  try {
    fs.writeFileSync(file, '1\n');
    return {
      state: 'switched-on',
      message:
        'Set net.ipv4.tcp_migrate_req = 1 so that endpoint changes reset no connection (the edge opens a new listening socket at each change)',
    };
  } catch (error) {
    return {
      state: 'off',
      message: `Could not set net.ipv4.tcp_migrate_req = 1 (${(error as Error).message}): an endpoint change may reset a few connections being opened at that moment. Set it as root (sysctl -w net.ipv4.tcp_migrate_req=1, and in /etc/sysctl.d to keep it)`,
    };
  }
}
