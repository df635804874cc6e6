import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminUsageError, runAdminCommand } from '../../admin-commands.ts';
import { stacks, swarmClusters } from '../../db/schema.ts';
import { engineAt } from '../../runtimes/swarm/swarm-databases.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { registeredSwarmClusters, swarmClusterTlsBox } from './swarm-clusters.service.ts';

// `npm run admin -- add-stack NAME --runtime swarm --host …`: what it refuses and why, and what it keeps.
// The managers are local servers playing the Engine API's /info and /nodes: one on a unix socket, one
// over TLS that takes only a client certificate of its own authority (made here with openssl), so the
// sealed certificates are proved by a real handshake. swarm-stacks.swarm.test.ts runs apps on a real
// second cluster.

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-add-stack-'));
const tlsDir = path.join(dir, 'client');
const secret = new Uint8Array(32).fill(7);
const box = swarmClusterTlsBox(secret);

type FakeSwarm = { clusterId: string; state?: string; control?: boolean };
const updates: string[] = [];

/** An Engine API that answers as a manager (or worker, or lone engine) of the given Swarm. */
function engineHandler(swarm: FakeSwarm) {
  return (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://engine');
    const json = (body: unknown) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname.endsWith('/info'))
      return json({
        Swarm: {
          LocalNodeState: swarm.state ?? 'active',
          ControlAvailable: swarm.control ?? true,
          Cluster: { ID: swarm.clusterId },
          Nodes: 3,
        },
      });
    if (url.pathname.endsWith('/nodes'))
      return json([
        {
          ID: `${swarm.clusterId}node`,
          Version: { Index: 9 },
          Spec: { Role: 'worker', Availability: 'active' },
          Description: { Hostname: `${swarm.clusterId}-worker` },
          Status: { State: 'ready', Addr: '10.0.0.2' },
        },
      ]);
    if (url.pathname.endsWith('/services')) return json([]);
    if (request.method === 'POST' && url.pathname.endsWith('/update')) {
      updates.push(`${swarm.clusterId} ${url.pathname.replace(/^\/v[\d.]+/, '')}`);
      request.resume();
      return response.writeHead(200).end();
    }
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"message":"no such thing"}');
  };
}

const servers: Server[] = [];
async function unixManager(name: string, swarm: FakeSwarm): Promise<string> {
  const socket = path.join(dir, `${name}.sock`);
  const server = createServer(engineHandler(swarm));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return `unix://${socket}`;
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, as `docker --tlsverify` uses them. */
async function makeCertificates() {
  fs.mkdirSync(tlsDir, { mode: 0o700 });
  const at = (file: string) => path.join(dir, file);
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', [
    'req',
    '-x509',
    ...key,
    '-keyout',
    at('ca-key.pem'),
    '-out',
    path.join(tlsDir, 'ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=berth-test-ca',
  ]);
  const sign = async (name: string, keyFile: string, certFile: string, extensions: string) => {
    fs.writeFileSync(at(`${name}.ext`), extensions);
    await run('openssl', [
      'req',
      ...key,
      '-keyout',
      keyFile,
      '-out',
      at(`${name}.csr`),
      '-subj',
      `/CN=${name}`,
    ]);
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      path.join(tlsDir, 'ca.pem'),
      '-CAkey',
      at('ca-key.pem'),
      '-CAcreateserial',
      '-out',
      certFile,
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
    ]);
  };
  await sign('server', at('server-key.pem'), at('server.pem'), 'subjectAltName=IP:127.0.0.1\n');
  await sign(
    'client',
    path.join(tlsDir, 'key.pem'),
    path.join(tlsDir, 'cert.pem'),
    'extendedKeyUsage=clientAuth\n',
  );
  fs.chmodSync(path.join(tlsDir, 'key.pem'), 0o600);
}

let t: TestApp;
let defaultHost: string;
let euHost: string;
let tlsHost: string;

const addStackDeps = () => ({
  box,
  defaultSwarm: { host: defaultHost, tlsDir: null, registry: 'registry.example.com:5000' },
  appsDomain: 'apps.example.com',
  autoscaling: { horizontal: true, vertical: false },
  engineAt,
});
const addStack = (...args: string[]) =>
  runAdminCommand(t.db, ['add-stack', ...args], { addStack: addStackDeps() });
const refusal = async (...args: string[]) => {
  const error = await addStack(...args).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AdminUsageError);
  return (error as Error).message;
};

beforeAll(async () => {
  await makeCertificates();
  defaultHost = await unixManager('default', { clusterId: 'defaultcluster' });
  euHost = await unixManager('eu', { clusterId: 'eucluster' });
  const https = createHttpsServer(
    {
      key: fs.readFileSync(path.join(dir, 'server-key.pem')),
      cert: fs.readFileSync(path.join(dir, 'server.pem')),
      ca: fs.readFileSync(path.join(tlsDir, 'ca.pem')),
      requestCert: true,
      rejectUnauthorized: true,
    },
    engineHandler({ clusterId: 'tlscluster' }),
  );
  servers.push(https);
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  tlsHost = `tcp://127.0.0.1:${(https.address() as AddressInfo).port}`;
  t = await testApp({});
}, 60_000);

afterAll(async () => {
  await t?.close();
  for (const server of servers) server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('add-stack', () => {
  it('refuses a command that names no stack, no swarm runtime, or a manager address that is none', async () => {
    expect(await refusal()).toContain("add-stack takes the stack's name first");
    expect(await refusal('Bad_Name', '--runtime', 'swarm', '--host', euHost)).toContain(
      'A stack\'s name is 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit, got "Bad_Name"',
    );
    expect(await refusal('a'.repeat(64), '--runtime', 'swarm', '--host', euHost)).toContain(
      "A stack's name is 1 to 63",
    );
    expect(await refusal('eu', '--host', euHost)).toContain('--runtime swarm is needed');
    expect(await refusal('eu', '--runtime', 'docker', '--host', euHost)).toContain(
      '--runtime swarm is needed',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host', 'ssh://node1')).toContain(
      '--host must be the Swarm manager\'s Engine API, unix:///path/to/docker.sock or tcp://host:2376, got "ssh://node1"',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host', 'tcp://10.0.0.1:2376')).toContain(
      "--tls-dir must name the directory of the manager's TLS client certificates (ca.pem, cert.pem, key.pem): tcp://10.0.0.1:2376 is reached over TCP, and only with TLS",
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host', euHost, '--tls-dir', tlsDir)).toContain(
      '--tls-dir is for a tcp:// manager',
    );
    expect(
      await refusal('eu', '--runtime', 'swarm', '--host', euHost, '--registry', 'not a registry'),
    ).toContain(
      '--registry must be the host:port of the registry every node of the cluster pulls from (registry.example.com:5000), got "not a registry"',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host', euHost, '--region', 'EU West')).toContain(
      '--region is 1 to 63 lower-case letters, digits and dashes, got "EU West"',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host', euHost, '--organization', 'acme')).toContain(
      'No organization has the id acme',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--frobnicate', 'x')).toContain(
      'Unknown option --frobnicate',
    );
    expect(await refusal('eu', '--runtime', 'swarm', '--host')).toContain('--host needs a value');
    expect(await refusal('eu', '--runtime', 'swarm', '--runtime', 'swarm')).toContain(
      '--runtime is given twice',
    );
    expect(await refusal('shared-us-west-1', '--runtime', 'swarm', '--host', euHost)).toContain(
      'A stack named shared-us-west-1 exists already',
    );
    // With no BERTH_REGISTRY to stand in, the registry must be named.
    const withoutRegistry = runAdminCommand(
      t.db,
      ['add-stack', 'eu', '--runtime', 'swarm', '--host', euHost],
      {
        addStack: { ...addStackDeps(), defaultSwarm: null },
      },
    );
    await expect(withoutRegistry).rejects.toThrow(
      '--registry must name the registry every node of the cluster pulls from (host:port): BERTH_REGISTRY is not set to stand in',
    );
    expect(await t.db.select().from(swarmClusters)).toEqual([]);
  });

  it('refuses an engine that does not answer, or answers as no manager', async () => {
    expect(
      await refusal('eu', '--runtime', 'swarm', '--host', `unix://${path.join(dir, 'nothing.sock')}`),
    ).toMatch(/^No Docker engine answers at unix:\/\/.*nothing\.sock: ENOENT/);
    const worker = await unixManager('worker', { clusterId: 'workercluster', control: false });
    expect(await refusal('eu', '--runtime', 'swarm', '--host', worker)).toBe(
      `The engine at ${worker} is not a Swarm manager (a worker node): run \`docker swarm init\` there, or name a manager's address`,
    );
    const lone = await unixManager('lone', { clusterId: '', state: 'inactive' });
    expect(await refusal('eu', '--runtime', 'swarm', '--host', lone)).toContain(
      'is not a Swarm manager (no swarm)',
    );
    expect(await t.db.select().from(stacks).where(eq(stacks.name, 'eu'))).toEqual([]);
  });

  it('registers a cluster on a unix socket as a shared stack on its own runtime key', async () => {
    const said = await addStack('eu', '--runtime', 'swarm', '--host', euHost, '--region', 'eu-west-1');
    expect(said).toBe(
      `Stack eu (shared) runs on the Swarm at ${euHost}: 3 nodes, images through registry.example.com:5000. Berth's server and workers take it up within 30 s (on the embedded database, at their next start); its nodes show on the stack's Nodes tab.`,
    );
    const [stack] = await t.db.select().from(stacks).where(eq(stacks.name, 'eu'));
    expect(stack).toMatchObject({
      runtime: 'swarm:eu',
      region: 'eu-west-1',
      public: true,
      organizationId: null,
      defaultDomain: 'apps.example.com',
      horizontalAutoscaling: true,
      verticalAutoscaling: false,
    });
    const [cluster] = await t.db
      .select()
      .from(swarmClusters)
      .where(eq(swarmClusters.stackId, stack?.id ?? 0));
    expect(cluster).toMatchObject({
      host: euHost,
      clusterId: 'eucluster',
      registry: 'registry.example.com:5000',
      tlsSealed: null,
    });
    // The API shows every Swarm cluster's stack as `swarm`.
    const owner = await t.signUp();
    const shown = await t.call('GET', `/api/stacks/${stack?.id}`, { token: owner.token });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ name: 'eu', runtime: 'swarm', region: 'eu-west-1' });
  });

  it('refuses a cluster a stack runs on already, and the cluster of BERTH_SWARM_HOST', async () => {
    expect(await refusal('eu-again', '--runtime', 'swarm', '--host', euHost)).toBe(
      `The Swarm at ${euHost} is stack eu's already: one cluster runs one stack`,
    );
    expect(await refusal('default-again', '--runtime', 'swarm', '--host', defaultHost)).toBe(
      `The Swarm at ${defaultHost} is BERTH_SWARM_HOST's, which the default stack runs on: one cluster runs one stack`,
    );
  });

  it("keeps a TLS manager's client certificates sealed, and reaches the manager with them", async () => {
    const notPem = path.join(dir, 'not-pem');
    fs.mkdirSync(notPem, { mode: 0o700 });
    for (const file of ['ca.pem', 'cert.pem'])
      fs.copyFileSync(path.join(tlsDir, file), path.join(notPem, file));
    fs.writeFileSync(path.join(notPem, 'key.pem'), 'not a key', { mode: 0o600 });
    expect(await refusal('secure', '--runtime', 'swarm', '--host', tlsHost, '--tls-dir', notPem)).toBe(
      '--tls-dir: key.pem is not a PEM private key',
    );
    fs.rmSync(path.join(notPem, 'ca.pem'));
    expect(await refusal('secure', '--runtime', 'swarm', '--host', tlsHost, '--tls-dir', notPem)).toBe(
      `--tls-dir: ${notPem} has no ca.pem`,
    );
    // Without a client certificate the manager takes no request.
    await expect(
      engineAt(tlsHost, { ca: fs.readFileSync(path.join(tlsDir, 'ca.pem')), cert: '', key: '' }).info(),
    ).rejects.toThrow();

    const org = await t.createOrganization(await t.signUp());
    const said = await addStack(
      'secure',
      '--runtime',
      'swarm',
      '--host',
      tlsHost,
      '--tls-dir',
      tlsDir,
      '--registry',
      '10.9.0.1:5009',
      '--organization',
      org.id,
    );
    expect(said).toContain(
      `Stack secure (dedicated to organization ${org.id}) runs on the Swarm at ${tlsHost}: 3 nodes`,
    );
    const [stack] = await t.db.select().from(stacks).where(eq(stacks.name, 'secure'));
    expect(stack).toMatchObject({ runtime: 'swarm:secure', public: false, organizationId: org.id });
    const [cluster] = await t.db
      .select()
      .from(swarmClusters)
      .where(eq(swarmClusters.stackId, stack?.id ?? 0));
    // No part of a certificate or key is readable in the database.
    expect(cluster?.tlsSealed).toMatch(/^v1\./);
    expect(cluster?.tlsSealed).not.toContain('BEGIN');
    expect(cluster?.tlsSealed).not.toContain(
      fs.readFileSync(path.join(tlsDir, 'key.pem'), 'utf8').split('\n')[1],
    );

    const registered = await registeredSwarmClusters(t.db, box);
    expect(registered.map(({ name, host, registry }) => ({ name, host, registry }))).toEqual([
      { name: 'swarm:eu', host: euHost, registry: 'registry.example.com:5000' },
      { name: 'swarm:secure', host: tlsHost, registry: '10.9.0.1:5009' },
    ]);
    const secure = registered.find((found) => found.name === 'swarm:secure');
    expect(String(secure?.tls?.key)).toBe(fs.readFileSync(path.join(tlsDir, 'key.pem'), 'utf8'));
    // The opened certificates make the handshake the manager asks for.
    expect((await engineAt(secure?.host ?? '', secure?.tls).info()).Swarm.Cluster.ID).toBe('tlscluster');
    // Under another server secret the sealed certificates do not open: that cluster alone is left out.
    const other = await registeredSwarmClusters(t.db, swarmClusterTlsBox(new Uint8Array(32).fill(8)));
    expect(other.map((found) => found.name)).toEqual(['swarm:eu']);
  });

  it('drains and activates a node of a registered stack through its own manager', async () => {
    updates.length = 0;
    const drained = await runAdminCommand(t.db, ['drain-node', 'secure', 'tlscluster-worker'], {
      addStack: addStackDeps(),
    });
    expect(drained).toContain(
      'Node tlscluster-worker (tlsclusternode) of stack secure is now drained (was active)',
    );
    const active = await runAdminCommand(t.db, ['activate-node', 'eu', 'eucluster-worker'], {
      addStack: addStackDeps(),
    });
    expect(active).toContain('Node eucluster-worker (euclusternode) of stack eu was already active.');
    // Paused, then drained (swarm-node-availability.ts): both on the registered manager, none on the other.
    expect(updates).toEqual([
      'tlscluster /nodes/tlsclusternode/update',
      'tlscluster /nodes/tlsclusternode/update',
    ]);
    // Without the server secret's box (the command's caller always has it) no registered cluster opens.
    await expect(runAdminCommand(t.db, ['drain-node', 'eu', 'eucluster-worker'])).rejects.toThrow(
      'Stack eu has no registered Swarm cluster',
    );
  });
});
