import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { serverRoot } from '../../server-root.ts';
import { checkMachine } from '../../start-checks.ts';
import { parseExports, SUITE_NET, swarmSuiteRuns } from '../../testing/swarm-cluster.ts';
import { engineAt } from './swarm-databases.ts';

// Issue 39: `npm run swarm:local -- up --tls` makes the one-machine cluster's manager answer as a real
// multi-machine Swarm's does, over TCP with TLS client certificates (BERTH_SWARM_HOST=tcp://…:2376 with
// BERTH_SWARM_TLS_DIR), so that path is proven against a real engine: the engine answers a client of the
// cluster's CA, refuses every other one, and Berth's own start check passes against it.

const runs = swarmSuiteRuns();
const script = path.resolve(serverRoot, '../../scripts/swarm-local.mjs');
/** A one-node cluster of its own, beside the suite's (SUITE_NET, or BERTH_SWARM_LOCAL_NET) and the script's default (77). */
const TLS_NET = '91';
const managerAddress = `10.${TLS_NET}.1.2`;
const CLIENT_FILES = ['ca.pem', 'cert.pem', 'key.pem'];

/**
 * The manager over TLS. engineAt's second parameter is the directory of the client files today; only this
 * line knows it, so a change of that parameter touches this test here alone.
 */
const managerOverTls = (host: string, tlsDir: string) => engineAt(host, tlsDir);

const run = promisify(execFile);

describe.skipIf(!runs)('swarm-local up --tls: the manager over TCP with TLS client certificates', () => {
  let dir: string;
  let exports: Record<string, string>;
  let tlsDir: string;
  /** Files a client the cluster's CA did not sign would have (its own CA's certificate and key). */
  let strangerDir: string;

  async function swarmLocal(...args: string[]): Promise<string> {
    try {
      const { stdout } = await run(process.execPath, [script, ...args], {
        timeout: 300_000,
        // Its number's own directory, which scripts/test-all.mjs's cleanup takes down after a crash.
        env: { ...process.env, BERTH_SWARM_LOCAL_NET: TLS_NET, BERTH_SWARM_LOCAL_DIR: undefined },
      });
      return stdout;
    } catch (error) {
      const failed = error as { stderr?: string; message: string };
      throw new Error(`swarm-local ${args.join(' ')} failed: ${failed.stderr?.trim() || failed.message}`);
    }
  }

  beforeAll(async () => {
    if ((process.env.BERTH_SWARM_LOCAL_NET ?? SUITE_NET) === TLS_NET)
      throw new Error(`this file's cluster is net ${TLS_NET}: run the suite's cluster at another net`);
    dir = `/tmp/berth-swarm${TLS_NET}`;
    exports = parseExports(await swarmLocal('up', '1', '--tls'));
    tlsDir = path.join(dir, 'tls');
    // A client with a certificate of another CA: made here the way the script makes the cluster's.
    strangerDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-swarm-tls-stranger-'));
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'];
    const inStranger = (name: string) => path.join(strangerDir, name);
    await run('openssl', [
      'req',
      '-x509',
      '-new',
      ...ec,
      '-keyout',
      inStranger('key.pem'),
      '-out',
      inStranger('cert.pem'),
      '-subj',
      '/CN=stranger',
      '-addext',
      'extendedKeyUsage=clientAuth',
    ]);
    fs.copyFileSync(path.join(tlsDir, 'ca.pem'), inStranger('ca.pem'));
  });

  afterAll(async () => {
    if (dir && fs.existsSync(path.join(dir, 'state.json'))) await swarmLocal('down');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    if (strangerDir) fs.rmSync(strangerDir, { recursive: true, force: true });
  });

  it('prints the TLS address and the client files instead of the unix socket, and status says so', async () => {
    expect(exports).toEqual({
      BERTH_SWARM_HOST: `tcp://${managerAddress}:2376`,
      BERTH_SWARM_TLS_DIR: tlsDir,
      BERTH_REGISTRY: `10.${TLS_NET}.0.1:${5000 + Number(TLS_NET)}`,
    });
    const status = JSON.parse(await swarmLocal('status', '--json')) as Record<string, unknown>;
    expect(status).toMatchObject({
      up: true,
      tls: true,
      tlsDir,
      managerHost: `tcp://${managerAddress}:2376`,
      // A node's own Engine API (its berth.engine label) stays its unix socket.
      nodes: [{ index: 1, engineHost: `unix://${dir}/node1.sock`, swarmStatus: 'Ready' }],
    });
  });

  it('the manager answers a client of the cluster CA over TLS, as a Swarm manager', async () => {
    const info = await managerOverTls(exports.BERTH_SWARM_HOST as string, tlsDir).info();
    expect(info.Swarm.LocalNodeState).toBe('active');
    expect(info.Swarm.ControlAvailable).toBe(true);
    expect(info.Name).toBe(`berth-swarm${TLS_NET}-1`);
  });

  it('refuses a client with no certificate, one of another CA, and plain HTTP', async () => {
    const ca = fs.readFileSync(path.join(tlsDir, 'ca.pem'));
    // The engine's alert (Go sends "bad certificate", newer ones "certificate required" or "unknown ca"):
    // this client took the server's certificate (the CA, the address), the server refused the client's.
    const refusedByTheEngine = /alert (bad certificate|certificate required|unknown ca)/;
    await expect(
      new Docker({ protocol: 'https', host: managerAddress, port: 2376, ca }).info(),
    ).rejects.toThrow(refusedByTheEngine);
    await expect(managerOverTls(exports.BERTH_SWARM_HOST as string, strangerDir).info()).rejects.toThrow(
      refusedByTheEngine,
    );
    await expect(new Docker({ protocol: 'http', host: managerAddress, port: 2376 }).info()).rejects.toThrow(
      /Client sent an HTTP request to an HTTPS server/,
    );
  });

  it('keeps the keys 0600 in 0700 directories, under the names the Docker CLI reads', () => {
    const walk = (at: string): string[] =>
      fs
        .readdirSync(at, { withFileTypes: true })
        .flatMap((entry) =>
          entry.isDirectory()
            ? [path.join(at, entry.name), ...walk(path.join(at, entry.name))]
            : [path.join(at, entry.name)],
        );
    const mode = (file: string) => fs.statSync(file).mode & 0o777;
    expect(mode(tlsDir)).toBe(0o700);
    const entries = walk(tlsDir).map((file) => path.relative(tlsDir, file));
    // The client's files under Docker's names, the server's below; the CA's key is gone once both are signed.
    expect(entries.sort()).toEqual([
      'ca.pem',
      'cert.pem',
      'key.pem',
      'server',
      'server/cert.pem',
      'server/key.pem',
    ]);
    expect(mode(path.join(tlsDir, 'server'))).toBe(0o700);
    expect(mode(path.join(tlsDir, 'key.pem'))).toBe(0o600);
    expect(mode(path.join(tlsDir, 'server/key.pem'))).toBe(0o600);

    const read = (file: string) => new X509Certificate(fs.readFileSync(path.join(tlsDir, file)));
    const [ca, server, client] = [read('ca.pem'), read('server/cert.pem'), read('cert.pem')];
    expect(server.subjectAltName).toBe(`IP Address:${managerAddress}`);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(client.verify(ca.publicKey)).toBe(true);
    // TLS Web Client / Server Authentication.
    expect(client.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(server.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    for (const file of CLIENT_FILES)
      expect(fs.existsSync(path.join(exports.BERTH_SWARM_TLS_DIR as string, file))).toBe(true);
  });

  it("passes Berth's start check with the printed variables, and fails it with another CA's client", async () => {
    const env = { BERTH_RUNTIME: 'swarm', ...exports };
    await expect(checkMachine(loadConfig(env), 'worker')).resolves.toBeUndefined();
    await expect(
      checkMachine(loadConfig({ ...env, BERTH_SWARM_TLS_DIR: strangerDir }), 'worker'),
    ).rejects.toThrow(/BERTH_SWARM_HOST: no Docker engine answers at tcp:\/\//);
  });

  it('keeps the TLS listener when node 1 is stopped and started again', async () => {
    await swarmLocal('stop', '1');
    await expect(new Docker({ socketPath: path.join(dir, 'node1.sock') }).ping()).rejects.toThrow();
    await swarmLocal('start', '1');
    const info = await managerOverTls(exports.BERTH_SWARM_HOST as string, tlsDir).info();
    expect(info.Swarm.ControlAvailable).toBe(true);
  });

  it('down removes the TLS files with the rest', async () => {
    await swarmLocal('down');
    expect(fs.existsSync(tlsDir)).toBe(false);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
