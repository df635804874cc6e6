import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';

// The edge outlives the server as a process of its own, but under systemd it stays in the server's
// unit's control group, and `systemctl stop` (or restart) of a unit with the default
// KillMode=control-group kills every process of that group: the edge too. The server says so at start.

export interface ServiceUnit {
  /** The unit's name, `berth.service`. */
  unit: string;
  /** Run by the user's own manager (`systemctl --user`), not the system's. */
  user: boolean;
}

/**
 * The systemd service a process's control group belongs to, from its /proc/<pid>/cgroup (lines of
 * `hierarchy:controllers:path`, the unified hierarchy's `0::` or v1's `name=systemd` naming the unit),
 * or null outside a service (a terminal's session scope, a container).
 */
export function serviceUnitOf(cgroup: string): ServiceUnit | null {
  for (const line of cgroup.split('\n')) {
    const [hierarchy, controllers, ...rest] = line.split(':');
    if (!((hierarchy === '0' && controllers === '') || controllers === 'name=systemd')) continue;
    const segments = rest.join(':').split('/');
    // `user@1000.service` is the user's manager: the unit is the one below it, if any.
    const index = segments.findLastIndex(
      (segment) => segment.endsWith('.service') && !segment.startsWith('user@'),
    );
    if (index < 0) return null;
    return {
      unit: segments[index] ?? '',
      user: segments.slice(0, index).some((segment) => segment.startsWith('user@')),
    };
  }
  return null;
}

/** What to tell when a stop of the unit (with this KillMode) stops the edge too; null when it does not. */
export function killModeWarning(service: ServiceUnit, killMode: string): string | null {
  // `process` signals the main process only; `none` nothing. The others reach the whole group.
  if (killMode !== 'control-group' && killMode !== 'mixed') return null;
  return `Berth runs as systemd's ${service.unit} with KillMode=${killMode}: stopping or restarting it stops the edge (Caddy) too, and every endpoint with it. Add KillMode=process to its [Service] section (systemctl${service.user ? ' --user' : ''} edit ${service.unit}) so the edge keeps serving while Berth is down`;
}

/**
 * Why the edge (this pid) would stop with the server, or null: both are in the control group of the
 * systemd service that started the server (INVOCATION_ID), whose KillMode reaches the whole group.
 * Anything it cannot read (no systemctl, no /proc) says nothing.
 */
export async function edgeStopsWithService(edgePid: number): Promise<string | null> {
  if (!process.env.INVOCATION_ID) return null;
  try {
    const own = serviceUnitOf(fs.readFileSync('/proc/self/cgroup', 'utf8'));
    const edge = serviceUnitOf(fs.readFileSync(`/proc/${edgePid}/cgroup`, 'utf8'));
    if (!own || edge?.unit !== own.unit || edge.user !== own.user) return null;
    const { stdout } = await promisify(execFile)(
      'systemctl',
      [...(own.user ? ['--user'] : []), 'show', '--property=KillMode', '--value', own.unit],
      { timeout: 5000 },
    );
    return killModeWarning(own, stdout.trim());
  } catch {
    return null;
  }
}
