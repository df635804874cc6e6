import { describe, expect, it } from 'vitest';
import { edgeStopsWithService, killModeWarning, serviceUnitOf } from './edge-systemd.ts';

// Under a systemd service, the edge is in the server's control group: the server says when a stop of the
// unit would stop the edge too.

describe('the edge under a systemd service', () => {
  it("finds the service a process's control group belongs to", () => {
    expect(serviceUnitOf('0::/system.slice/berth.service\n')).toEqual({ unit: 'berth.service', user: false });
    // cgroup v1: the systemd hierarchy names it.
    expect(
      serviceUnitOf('12:pids:/system.slice/berth.service\n1:name=systemd:/system.slice/berth.service\n'),
    ).toEqual({ unit: 'berth.service', user: false });
    // A unit of the user's own manager.
    expect(
      serviceUnitOf('0::/user.slice/user-1000.slice/user@1000.service/app.slice/berth.service\n'),
    ).toEqual({ unit: 'berth.service', user: true });
    // No service: a terminal's session, the user's manager itself, a container's root.
    expect(serviceUnitOf('0::/user.slice/user-1000.slice/session-3.scope\n')).toBeNull();
    expect(serviceUnitOf('0::/user.slice/user-1000.slice/user@1000.service/init.scope\n')).toBeNull();
    expect(serviceUnitOf('9:name=systemd:/\n0::/\n')).toBeNull();
    expect(serviceUnitOf('')).toBeNull();
  });

  it("warns when the unit's stop reaches the whole group, and says how to keep the edge serving", () => {
    const system = { unit: 'berth.service', user: false };
    expect(killModeWarning(system, 'control-group')).toBe(
      "Berth runs as systemd's berth.service with KillMode=control-group: stopping or restarting it stops the edge (Caddy) too, and every endpoint with it. Add KillMode=process to its [Service] section (systemctl edit berth.service) so the edge keeps serving while Berth is down",
    );
    expect(killModeWarning({ unit: 'berth.service', user: true }, 'mixed')).toBe(
      "Berth runs as systemd's berth.service with KillMode=mixed: stopping or restarting it stops the edge (Caddy) too, and every endpoint with it. Add KillMode=process to its [Service] section (systemctl --user edit berth.service) so the edge keeps serving while Berth is down",
    );
    expect(killModeWarning(system, 'process')).toBeNull();
    expect(killModeWarning(system, 'none')).toBeNull();
  });

  it('says nothing for a server systemd did not start', async () => {
    const invocation = process.env.INVOCATION_ID;
    delete process.env.INVOCATION_ID;
    try {
      expect(await edgeStopsWithService(process.pid)).toBeNull();
    } finally {
      if (invocation !== undefined) process.env.INVOCATION_ID = invocation;
    }
  });
});
