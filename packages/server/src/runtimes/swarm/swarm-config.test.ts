import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.ts';

// BERTH_RUNTIME=swarm's settings: the manager, its TLS files for TCP, and the registry.

describe('the swarm runtime configuration', () => {
  const registry = 'registry.example.com:5000';

  it('takes a unix manager and a registry, and is null on the other runtimes', () => {
    expect(loadConfig({}).swarm).toBeNull();
    expect(loadConfig({ BERTH_RUNTIME: 'docker', BERTH_SWARM_HOST: 'nonsense' }).swarm).toBeNull();
    const config = loadConfig({
      BERTH_RUNTIME: 'swarm',
      BERTH_SWARM_HOST: 'unix:///run/manager.sock',
      BERTH_REGISTRY: registry,
    });
    expect(config.runtime).toBe('swarm');
    expect(config.swarm).toEqual({ host: 'unix:///run/manager.sock', tlsDir: null, registry });
  });

  it('reaches a tcp manager only with the three TLS files', () => {
    const base = {
      BERTH_RUNTIME: 'swarm',
      BERTH_SWARM_HOST: 'tcp://manager.example.com:2376',
      BERTH_REGISTRY: registry,
    };
    expect(() => loadConfig(base)).toThrow(/BERTH_SWARM_TLS_DIR must name the directory/);
    const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-swarm-tls-'));
    fs.writeFileSync(path.join(dir, 'ca.pem'), 'x');
    expect(() => loadConfig({ ...base, BERTH_SWARM_TLS_DIR: dir })).toThrow(
      new ConfigError(`BERTH_SWARM_TLS_DIR: ${dir} has no cert.pem, key.pem`),
    );
    fs.writeFileSync(path.join(dir, 'cert.pem'), 'x');
    fs.writeFileSync(path.join(dir, 'key.pem'), 'x');
    expect(loadConfig({ ...base, BERTH_SWARM_TLS_DIR: dir }).swarm?.tlsDir).toBe(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stops the start on a manager or registry it cannot use', () => {
    const swarm = { BERTH_RUNTIME: 'swarm', BERTH_REGISTRY: registry };
    for (const host of ['', 'ssh://user@manager', 'tcp://manager', 'unix://', 'x'.repeat(2000)])
      expect(() => loadConfig({ ...swarm, BERTH_SWARM_HOST: host })).toThrow(/BERTH_SWARM_HOST must be/);
    for (const value of [
      '',
      'not a registry',
      '-registry:5000',
      `${'a'.repeat(300)}:5000`,
      'https://registry',
    ])
      expect(() =>
        loadConfig({ BERTH_RUNTIME: 'swarm', BERTH_SWARM_HOST: 'unix:///m.sock', BERTH_REGISTRY: value }),
      ).toThrow(/BERTH_REGISTRY must be/);
  });
});
