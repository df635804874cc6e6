#!/usr/bin/env node
// A real Docker Swarm cluster on this one machine, for the swarm suite and for trying the swarm runtime.
//
//   npm run swarm:local -- up [N]     N nodes (default 3, at most 9); node 1 is the manager
//   npm run swarm:local -- up [N] --tls   node 1's daemon also answers at tcp://10.NET.1.2:2376, TLS only
//   npm run swarm:local -- down       removes everything `up` made
//   npm run swarm:local -- stop K     node K dies: its daemon and containers are killed, its link goes down
//   npm run swarm:local -- start K    node K comes back (link up, daemon started, waits until it is Ready)
//   npm run swarm:local -- status [--json]
//
// Each node is a dockerd in its own network namespace (berth-swarmNET-K) and host name (a UTS namespace),
// joined to the host by a veth pair: 10.NET.K.1/24 on the host, 10.NET.K.2/24 inside, default route to the
// host. The daemons are started with `nsenter --net=…`, not `ip netns exec`: the latter remounts /sys, which
// hides the cgroup mounts, and dockerd then fails with "Devices cgroup isn't mounted". A registry (Debian's
// docker-registry) answers at 10.NET.0.1:(5000+NET), an address on the host's loopback that every node
// reaches through its default route whichever node is down, and which is not the Debian package's own
// service port (5000). The host's FORWARD chain drops traffic between the veths (Docker sets its policy to
// DROP), so one rule accepts 10.NET.0.0/16 to itself.
//
// `up` prints `export BERTH_SWARM_HOST=…` and `export BERTH_REGISTRY=…` on stdout; everything else goes
// to stderr. With --tls, node 1's dockerd also listens at tcp://10.NET.1.2:2376 with --tlsverify (a client
// must show a certificate of the cluster's own CA), and BERTH_SWARM_HOST names that address, with
// BERTH_SWARM_TLS_DIR the client's files (DIR/tls: ca.pem, cert.pem, key.pem, as `docker --tlsverify` reads
// them); the nodes' `berth.engine` labels stay their unix sockets. Environment: BERTH_SWARM_LOCAL_NET (default 77: addresses 10.77.*, names berth-swarm77-K),
// BERTH_SWARM_LOCAL_DIR (default /tmp/berth-swarmNET: the daemons' data, sockets, pid files and logs).
// Runs as root. Every command is run with execFile (no shell). One run at a time per NET (a lock file).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const MAX_NODES = 9;

const net = networkNumber(process.env.BERTH_SWARM_LOCAL_NET ?? '77');
const dir = clusterDir(process.env.BERTH_SWARM_LOCAL_DIR ?? `/tmp/berth-swarm${net}`);
const stateFile = path.join(dir, 'state.json');
const lockFile = `${dir}.lock`;
const subnet = `10.${net}.0.0/16`;
const ruleComment = `berth-swarm${net}`;
const registryIp = `10.${net}.0.1`;
const registryPort = 5000 + net;
const registry = `${registryIp}:${registryPort}`;

const nodeName = (k) => `berth-swarm${net}-${k}`;
const hostVeth = (k) => `bswarm${net}-${k}`;
const hostSide = (k) => `10.${net}.${k}.1`;
const nodeAddress = (k) => `10.${net}.${k}.2`;
const nodeDir = (k) => path.join(dir, `node${k}`);
const nodeSocket = (k) => path.join(dir, `node${k}.sock`);
const engineHost = (k) => `unix://${nodeSocket(k)}`;
const dockerdPidFile = (k) => path.join(nodeDir(k), 'dockerd.pid');
const containerdPidFile = (k) => path.join(nodeDir(k), 'exec', 'containerd', 'containerd.pid');
const utsFile = (k) => path.join(nodeDir(k), 'uts');
const registryPidFile = path.join(dir, 'registry.pid');
// TLS (up --tls): the client's files under Docker's names in tlsDir, the server's in a directory below it.
const tlsDir = path.join(dir, 'tls');
const tlsServerDir = path.join(tlsDir, 'server');
const tlsPort = 2376;
const tlsHost = `tcp://${nodeAddress(1)}:${tlsPort}`;
/** The manager's Engine API as `up` prints it: the TLS address when the cluster was made with --tls. */
const managerHost = (state) => (state?.tls ? tlsHost : engineHost(1));

function networkNumber(text) {
  const number = Number(text);
  if (text.length > 3 || !Number.isInteger(number) || number < 1 || number > 254)
    fail(`BERTH_SWARM_LOCAL_NET must be a whole number from 1 to 254, not "${text.slice(0, 20)}"`);
  return number;
}

function clusterDir(text) {
  if (text.length > 80 || !path.isAbsolute(text) || path.resolve(text) === '/')
    fail('BERTH_SWARM_LOCAL_DIR must be an absolute path (not /) of at most 80 characters');
  return path.resolve(text);
}

/** Ends the run with a message (settings read before anything is made or locked). */
function fail(message) {
  console.error(`swarm-local: ${message}`);
  process.exit(1);
}

/** A refusal inside a run: thrown, so that the lock is released on the way out. */
function refuse(message) {
  throw new Error(message);
}

const say = (message) => console.error(`swarm-local[${net}]: ${message}`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a command; its stdout, or an error that carries its stderr. */
async function sh(command, args, { quiet = false } = {}) {
  try {
    const { stdout } = await run(command, args, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    if (quiet) throw error;
    const detail = String(error.stderr ?? '').trim() || error.message;
    throw new Error(`${command} ${args.join(' ')}: ${detail}`);
  }
}

/** Runs a command whose failure is expected when there is nothing to do (a removal of something gone). */
async function tryRun(command, args) {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

const docker = (k, args) => sh('docker', ['-H', engineHost(k), ...args]);

// ---------------------------------------------------------------- lock and state

async function withLock(action) {
  const started = Date.now();
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readText(lockFile));
      if (!processAlive(holder)) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      if (Date.now() - started > 10 * 60_000) refuse(`another run (pid ${holder}) holds ${lockFile}`);
      if (Date.now() - started < 1000) say(`waiting for another run (pid ${holder}) to finish`);
      await sleep(1000);
    }
  }
  try {
    return await action();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function readState() {
  const text = readText(stateFile);
  return text ? JSON.parse(text) : null;
}

/** True while the process exists and has not exited (a zombie, killed but not yet reaped, has). */
function processAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // /proc/PID/stat: "pid (comm) state …"; comm may hold spaces and parentheses, the state follows the last ")".
  const stat = readText(`/proc/${pid}/stat`);
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** Waits (up to a limit) until these processes have exited. */
async function waitForExit(pids, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(processAlive) && Date.now() < deadline) await sleep(100);
}

/** The pid in a pid file when that process is alive and runs `command` (pid files outlive their process). */
function livePid(file, command) {
  const pid = Number(readText(file));
  if (!processAlive(pid)) return null;
  return readText(`/proc/${pid}/comm`) === command ? pid : null;
}

// ---------------------------------------------------------------- up

async function up(count, tls) {
  const state = readState();
  if (state) {
    // The other kind of cluster would print other exports: only `down` changes it.
    if (Boolean(state.tls) !== tls)
      refuse(`already up ${state.tls ? 'with' : 'without'} --tls (down first to make it the other way)`);
    const dead = nodes(state).filter((k) => !livePid(dockerdPidFile(k), 'dockerd'));
    say(
      dead.length
        ? `already up with ${state.nodes} nodes; node(s) ${dead.join(', ')} stopped (start K, or down first)`
        : `already up with ${state.nodes} nodes`,
    );
    printExports(state);
    return;
  }
  await checkTools(tls);
  // `down` removes the directory: it must be one this script made, never a folder that held other things.
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new Error(
      `${dir} exists and holds files swarm-local did not make: choose a new or empty BERTH_SWARM_LOCAL_DIR`,
    );
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written first, so that `down` cleans up after an `up` that failed half-way.
  const made = { net, nodes: count, registry, tls };
  fs.writeFileSync(stateFile, JSON.stringify(made, null, 2), { mode: 0o600 });
  if (tls) await makeTlsFiles();

  // Routing between the veths (Docker turns it on too; without Docker it may be off).
  fs.writeFileSync('/proc/sys/net/ipv4/ip_forward', '1');
  if (!(await tryRun('iptables', forwardRule('-C'))))
    await sh('iptables', ['-I', 'FORWARD', '1', ...forwardRule('-I').slice(2)]);
  if (!(await sh('ip', ['-o', 'addr', 'show', 'dev', 'lo'])).includes(` ${registryIp}/32 `))
    await sh('ip', ['addr', 'add', `${registryIp}/32`, 'dev', 'lo']);
  await startRegistry();

  const all = Array.from({ length: count }, (_, i) => i + 1);
  for (const k of all) await makeNode(k);
  await Promise.all(all.map((k) => startDaemon(k, tls)));

  say(`swarm init on node 1 (${nodeAddress(1)})`);
  await docker(1, [
    'swarm',
    'init',
    '--advertise-addr',
    nodeAddress(1),
    '--listen-addr',
    `${nodeAddress(1)}:2377`,
  ]);
  const token = (await docker(1, ['swarm', 'join-token', '-q', 'worker'])).trim();
  for (const k of all.slice(1)) {
    say(`node ${k} joins`);
    await docker(k, [
      'swarm',
      'join',
      '--token',
      token,
      '--advertise-addr',
      nodeAddress(k),
      '--listen-addr',
      `${nodeAddress(k)}:2377`,
      `${nodeAddress(1)}:2377`,
    ]);
  }
  // The node label names each node's own Engine API, for what only a node's engine can do (stats, a
  // database's backups); the same label is on the engine (dockerd --label).
  for (const k of all) {
    const id = (await docker(k, ['info', '--format', '{{.Swarm.NodeID}}'])).trim();
    await docker(1, ['node', 'update', '--label-add', `berth.engine=${engineHost(k)}`, id]);
  }
  await waitForNodes(all, 'Ready', 120_000);
  say(`up: ${count} nodes Ready, registry at ${registry}${tls ? `, the manager at ${tlsHost} (TLS)` : ''}`);
  printExports(made);
}

function printExports(state) {
  console.log(`export BERTH_SWARM_HOST=${managerHost(state)}`);
  if (state.tls) console.log(`export BERTH_SWARM_TLS_DIR=${tlsDir}`);
  console.log(`export BERTH_REGISTRY=${registry}`);
}

const nodes = (state) => Array.from({ length: state.nodes }, (_, i) => i + 1);

const forwardRule = (action) => [
  action,
  'FORWARD',
  '-s',
  subnet,
  '-d',
  subnet,
  '-m',
  'comment',
  '--comment',
  ruleComment,
  '-j',
  'ACCEPT',
];

async function checkTools(tls) {
  if (process.getuid?.() !== 0) refuse('must run as root (network namespaces, iptables, dockerd)');
  const missing = [];
  const tools = ['ip', 'iptables', 'nsenter', 'unshare', 'dockerd', 'docker', 'docker-registry'];
  for (const tool of tls ? [...tools, 'openssl'] : tools)
    if (!(await tryRun('sh', ['-c', 'command -v "$1"', 'sh', tool]))) missing.push(tool);
  if (missing.length)
    refuse(
      `missing ${missing.join(', ')} (apt-get install iproute2 iptables util-linux docker.io docker-registry${tls ? ' openssl' : ''})`,
    );
}

/**
 * The cluster's own CA, node 1's server certificate (for its address: the client checks it) and one client
 * certificate, made with the openssl command. The CA's key is removed once both are signed: nothing else
 * is ever signed with it, so no one who reads these files can make another certificate the daemon takes.
 */
async function makeTlsFiles() {
  fs.mkdirSync(tlsServerDir, { recursive: true, mode: 0o700 });
  const caKey = path.join(tlsDir, 'ca-key.pem');
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await sh('openssl', [
    'req',
    '-x509',
    '-new',
    ...ecKey,
    '-keyout',
    caKey,
    '-out',
    path.join(tlsDir, 'ca.pem'),
    '-days',
    '365',
    '-subj',
    `/CN=berth-swarm${net} CA`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  fs.chmodSync(caKey, 0o600);
  const sign = async (into, subject, extensions) => {
    const key = path.join(into, 'key.pem');
    const request = path.join(into, 'request.csr');
    const extensionFile = path.join(into, 'extensions.cnf');
    await sh('openssl', ['req', '-new', ...ecKey, '-keyout', key, '-out', request, '-subj', subject]);
    fs.chmodSync(key, 0o600);
    fs.writeFileSync(extensionFile, `${extensions.join('\n')}\n`, { mode: 0o600 });
    await sh('openssl', [
      'x509',
      '-req',
      '-in',
      request,
      '-CA',
      path.join(tlsDir, 'ca.pem'),
      '-CAkey',
      caKey,
      '-set_serial',
      `0x${randomBytes(16).toString('hex')}`,
      '-days',
      '365',
      '-extfile',
      extensionFile,
      '-out',
      path.join(into, 'cert.pem'),
    ]);
    fs.rmSync(request);
    fs.rmSync(extensionFile);
  };
  const leaf = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature'];
  await sign(tlsServerDir, `/CN=${nodeAddress(1)}`, [
    ...leaf,
    'extendedKeyUsage=serverAuth',
    `subjectAltName=IP:${nodeAddress(1)}`,
  ]);
  await sign(tlsDir, `/CN=berth-swarm${net} client`, [...leaf, 'extendedKeyUsage=clientAuth']);
  fs.rmSync(caKey);
  say(`TLS: CA, server and client certificates in ${tlsDir}`);
}

async function startRegistry() {
  const config = path.join(dir, 'registry.yml');
  fs.writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: warn',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'registry')}`,
      // Deprovisioning removes an app's image tags.
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: ${registry}`,
      '',
    ].join('\n'),
  );
  const pid = daemon('docker-registry', ['serve', config], path.join(dir, 'registry.log'));
  fs.writeFileSync(registryPidFile, String(pid));
  await waitFor(`the registry at ${registry}`, 30_000, async () => {
    if (!processAlive(pid)) throw new Error(`the registry exited: see ${path.join(dir, 'registry.log')}`);
    return (await httpStatus({ host: registryIp, port: registryPort, path: '/v2/' })) === 200;
  });
}

/** Starts a long-running process detached from this one, its output to a log file; its pid. */
function daemon(command, args, log) {
  const out = fs.openSync(log, 'a', 0o600);
  const child = spawn(command, args, { detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  return child.pid;
}

async function makeNode(k) {
  const name = nodeName(k);
  fs.mkdirSync(path.join(nodeDir(k), 'data'), { recursive: true, mode: 0o700 });
  fs.mkdirSync(path.join(nodeDir(k), 'exec'), { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(nodeDir(k), 'daemon.json'), '{}\n');
  await sh('ip', ['netns', 'add', name]);
  await sh('ip', ['link', 'add', hostVeth(k), 'type', 'veth', 'peer', 'name', 'eth0', 'netns', name]);
  await sh('ip', ['addr', 'add', `${hostSide(k)}/24`, 'dev', hostVeth(k)]);
  await sh('ip', ['link', 'set', hostVeth(k), 'up']);
  const inside = (args) => sh('ip', ['-n', name, ...args]);
  await inside(['link', 'set', 'lo', 'up']);
  await inside(['addr', 'add', `${nodeAddress(k)}/24`, 'dev', 'eth0']);
  await inside(['link', 'set', 'eth0', 'up']);
  await inside(['route', 'add', 'default', 'via', hostSide(k)]);
  // A host name of its own (a UTS namespace kept in a file), so that nodes are told apart by name.
  fs.writeFileSync(utsFile(k), '');
  await sh('unshare', [`--uts=${utsFile(k)}`, 'hostname', name]);
}

/** Node K's daemon; with `tls`, node 1's also answers at tlsHost to clients of the cluster's CA only. */
async function startDaemon(k, tls) {
  const name = nodeName(k);
  const tlsListener = tls && k === 1;
  const args = [
    `--net=/var/run/netns/${name}`,
    `--uts=${utsFile(k)}`,
    'dockerd',
    '--config-file',
    path.join(nodeDir(k), 'daemon.json'),
    '--data-root',
    path.join(nodeDir(k), 'data'),
    '--exec-root',
    path.join(nodeDir(k), 'exec'),
    '-H',
    engineHost(k),
    '--pidfile',
    dockerdPidFile(k),
    '--containerd-namespace',
    name,
    '--containerd-plugins-namespace',
    `${name}p`,
    // All of the node's containers under one cgroup: `stop` kills them as a dying machine would.
    '--cgroup-parent',
    name,
    '--label',
    `berth.engine=${engineHost(k)}`,
    '--insecure-registry',
    registry,
    '--swarm-default-advertise-addr',
    nodeAddress(k),
    ...(tlsListener
      ? [
          '-H',
          tlsHost,
          '--tlsverify',
          '--tlscacert',
          path.join(tlsDir, 'ca.pem'),
          '--tlscert',
          path.join(tlsServerDir, 'cert.pem'),
          '--tlskey',
          path.join(tlsServerDir, 'key.pem'),
        ]
      : []),
  ];
  // A killed daemon's pid file stays, and dockerd refuses to start while its process is not yet reaped.
  if (!livePid(dockerdPidFile(k), 'dockerd')) fs.rmSync(dockerdPidFile(k), { force: true });
  // So does its containerd's: dockerd takes a killed one not yet reaped for a running one, waits for its
  // socket (gone) and exits, as a `start` right after a `stop` found.
  if (!livePid(containerdPidFile(k), 'containerd')) fs.rmSync(containerdPidFile(k), { force: true });
  const pid = daemon('nsenter', args, path.join(nodeDir(k), 'dockerd.log'));
  await waitFor(`node ${k}'s dockerd`, 60_000, async () => {
    if (!processAlive(pid))
      throw new Error(`node ${k}'s dockerd exited: see ${path.join(nodeDir(k), 'dockerd.log')}`);
    if ((await httpStatus({ socketPath: nodeSocket(k), path: '/_ping' })) !== 200) return false;
    // The TLS listener as a client sees it: the node's address, its certificate, the client's.
    return !tlsListener || (await httpStatus(tlsClientTarget(), httpsRequest)) === 200;
  });
}

const tlsClientTarget = () => ({
  host: nodeAddress(1),
  port: tlsPort,
  path: '/_ping',
  ca: fs.readFileSync(path.join(tlsDir, 'ca.pem')),
  cert: fs.readFileSync(path.join(tlsDir, 'cert.pem')),
  key: fs.readFileSync(path.join(tlsDir, 'key.pem')),
});

function httpStatus(target, send = httpRequest) {
  return new Promise((resolve) => {
    const request = send({ ...target, timeout: 2000 }, (response) => {
      response.resume();
      resolve(response.statusCode);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(0));
    request.end();
  });
}

async function waitFor(what, timeoutMs, check) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}

/** The swarm's nodes as the manager sees them: host name → { id, status, availability }. */
async function swarmNodes() {
  const out = await docker(1, [
    'node',
    'ls',
    '--format',
    '{{.ID}}\t{{.Hostname}}\t{{.Status}}\t{{.Availability}}\t{{.ManagerStatus}}',
  ]);
  const seen = new Map();
  for (const line of out.split('\n')) {
    if (!line.trim()) continue;
    const [id, hostname, status, availability, managerStatus] = line.split('\t');
    seen.set(hostname, { id, status, availability, managerStatus });
  }
  return seen;
}

async function waitForNodes(ks, status, timeoutMs) {
  await waitFor(`node(s) ${ks.join(', ')} to be ${status}`, timeoutMs, async () => {
    const seen = await swarmNodes().catch(() => new Map());
    return ks.every((k) => seen.get(nodeName(k))?.status === status);
  });
}

// ---------------------------------------------------------------- stop, start

function requireNode(state, text) {
  if (!state) refuse('the cluster is not up (run up first)');
  const k = Number(text);
  if (String(text).length > 1 || !Number.isInteger(k) || k < 1 || k > state.nodes)
    refuse(`node must be 1 to ${state.nodes}, not "${String(text).slice(0, 20)}"`);
  return k;
}

async function stop(k) {
  const name = nodeName(k);
  // A machine that dies: nothing gets to shut down cleanly, and nothing answers at its address.
  const pid = livePid(dockerdPidFile(k), 'dockerd');
  if (pid) process.kill(pid, 'SIGKILL');
  const killed = await killNodeProcesses(k);
  await tryRun('ip', ['link', 'set', hostVeth(k), 'down']);
  // Dead when this returns: a `start` right after finds no daemon of the node still exiting.
  await waitForExit(pid ? [pid, ...killed] : killed);
  say(pid ? `node ${k} (${name}) stopped` : `node ${k} (${name}) was not running; its link is down`);
}

/** Kills node K's containerd, its containers (its cgroup) and their shims (by their namespace); their pids. */
async function killNodeProcesses(k) {
  const containerd = livePid(containerdPidFile(k), 'containerd');
  const pids = [...cgroupProcesses(nodeName(k)), ...shimProcesses(nodeName(k))];
  if (containerd) pids.push(containerd);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  return pids;
}

/** The cgroup directories named `name` (cgroup v2, or one per v1 hierarchy). */
function cgroupRoots(name) {
  const base = '/sys/fs/cgroup';
  if (fs.existsSync(path.join(base, 'cgroup.controllers'))) return [path.join(base, name)];
  let hierarchies = [];
  try {
    hierarchies = fs.readdirSync(base);
  } catch {
    return [];
  }
  return hierarchies.map((h) => path.join(base, h, name)).filter((p) => fs.existsSync(p));
}

function cgroupProcesses(name) {
  const pids = new Set();
  const visit = (cgroup) => {
    for (const line of readText(path.join(cgroup, 'cgroup.procs')).split('\n'))
      if (line) pids.add(Number(line));
    let entries = [];
    try {
      entries = fs.readdirSync(cgroup, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) visit(path.join(cgroup, entry.name));
  };
  for (const root of cgroupRoots(name)) visit(root);
  return pids;
}

/** containerd's shims of the node: `containerd-shim-runc-v2 -namespace NAME …`. */
function shimProcesses(name) {
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || !readText(`/proc/${pid}/comm`).startsWith('containerd-shim')) continue;
    const args = readText(`/proc/${pid}/cmdline`).split('\0');
    const at = args.indexOf('-namespace');
    if (at >= 0 && args[at + 1] === name) pids.push(pid);
  }
  return pids;
}

async function start(state, k) {
  await sh('ip', ['link', 'set', hostVeth(k), 'up']);
  if (!livePid(dockerdPidFile(k), 'dockerd')) await startDaemon(k, Boolean(state.tls));
  // After the manager restarts, its workers are Unknown until they report again: wait for every running node.
  const running = nodes(state).filter((node) => livePid(dockerdPidFile(node), 'dockerd'));
  if (running.includes(1)) await waitForNodes(running, 'Ready', 120_000);
  say(`node ${k} (${nodeName(k)}) started; node(s) ${running.join(', ')} Ready`);
}

// ---------------------------------------------------------------- down

async function down() {
  const state = readState();
  const known = state ? nodes(state) : Array.from({ length: MAX_NODES }, (_, i) => i + 1);
  if (!state && !fs.existsSync(dir) && !(await tryRun('iptables', forwardRule('-C')))) {
    say('nothing is up');
    return;
  }
  // Daemons first (a clean stop, then a kill), so that none holds a namespace or a mount.
  await Promise.all(known.map((k) => stopDaemon(k)));
  for (const k of known) {
    await waitForExit(await killNodeProcesses(k));
    await tryRun('ip', ['link', 'del', hostVeth(k)]);
    await tryRun('ip', ['netns', 'del', nodeName(k)]);
  }
  const registryPid = livePid(registryPidFile, 'docker-registry');
  if (registryPid) process.kill(registryPid, 'SIGTERM');
  await tryRun('ip', ['addr', 'del', `${registryIp}/32`, 'dev', 'lo']);
  while (await tryRun('iptables', forwardRule('-D'))) {
    // every copy of the rule
  }
  await sleep(500);
  for (const k of known) for (const root of cgroupRoots(nodeName(k))) removeCgroup(root);
  await unmountUnder(dir);
  // Only a directory `up` made (its state file is there, written first) is removed.
  if (state) fs.rmSync(dir, { recursive: true, force: true });
  else if (fs.existsSync(dir)) say(`left ${dir}: it holds no ${path.basename(stateFile)} of swarm-local`);
  say('down: nodes, namespaces, veths, rule, registry and files (TLS ones too) removed');
}

async function stopDaemon(k) {
  const pid = livePid(dockerdPidFile(k), 'dockerd');
  if (!pid) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + 20_000;
  while (processAlive(pid) && Date.now() < deadline) await sleep(250);
  if (processAlive(pid)) process.kill(pid, 'SIGKILL');
}

/** Removes an emptied cgroup tree, leaves first (rmdir is how cgroups are removed). */
function removeCgroup(cgroup) {
  let entries = [];
  try {
    entries = fs.readdirSync(cgroup, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) removeCgroup(path.join(cgroup, entry.name));
  try {
    fs.rmdirSync(cgroup);
  } catch {
    // still in use, or gone
  }
}

/** Unmounts everything mounted below `root` (overlay layers, namespace files), deepest first. */
async function unmountUnder(root) {
  const mountPoints = readText('/proc/self/mountinfo')
    .split('\n')
    .map((line) => unescapeMountPath(line.split(' ')[4] ?? ''))
    .filter((point) => point.startsWith(`${root}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of mountPoints) await tryRun('umount', ['-l', point]);
}

/** mountinfo writes space, tab, newline and backslash in paths as \ooo (octal). */
function unescapeMountPath(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const digits = text.slice(i + 1, i + 4);
    if (text[i] === '\\' && digits.length === 3 && [...digits].every((c) => c >= '0' && c <= '7')) {
      out += String.fromCharCode(Number.parseInt(digits, 8));
      i += 3;
    } else out += text[i];
  }
  return out;
}

// ---------------------------------------------------------------- status

async function status(json) {
  const state = readState();
  if (!state) {
    if (json) console.log(JSON.stringify({ up: false, net }));
    else say('not up');
    return;
  }
  const swarm = livePid(dockerdPidFile(1), 'dockerd') ? await swarmNodes().catch(() => new Map()) : new Map();
  const report = {
    up: true,
    net,
    dir,
    managerHost: managerHost(state),
    tls: Boolean(state.tls),
    tlsDir: state.tls ? tlsDir : null,
    registry,
    registryRunning: Boolean(livePid(registryPidFile, 'docker-registry')),
    nodes: nodes(state).map((k) => ({
      index: k,
      name: nodeName(k),
      address: nodeAddress(k),
      engineHost: engineHost(k),
      daemonRunning: Boolean(livePid(dockerdPidFile(k), 'dockerd')),
      linkUp: readText(`/sys/class/net/${hostVeth(k)}/operstate`) !== 'down',
      swarmStatus: swarm.get(nodeName(k))?.status ?? 'unknown',
      availability: swarm.get(nodeName(k))?.availability ?? 'unknown',
    })),
  };
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(`registry ${registry} ${report.registryRunning ? 'running' : 'NOT running'}`);
  console.log(
    state.tls
      ? `manager ${tlsHost} (TLS: client certificates in ${tlsDir}; also ${engineHost(1)})`
      : `manager ${engineHost(1)}`,
  );
  for (const node of report.nodes)
    console.log(
      `node ${node.index} ${node.name} ${node.address} daemon ${node.daemonRunning ? 'running' : 'stopped'}, ` +
        `link ${node.linkUp ? 'up' : 'down'}, swarm ${node.swarmStatus}/${node.availability}`,
    );
  printExports(state);
}

// ---------------------------------------------------------------- main

const args = process.argv.slice(2).filter((arg) => arg !== '--');
const flags = args.filter((arg) => arg.startsWith('--'));
const [command, argument] = args.filter((arg) => !arg.startsWith('--'));
const usage = 'usage: swarm-local.mjs up [N] [--tls] | down | stop K | start K | status [--json]';
const allowedFlags = { up: ['--tls'], status: ['--json'] }[command] ?? [];
if (flags.some((flag) => !allowedFlags.includes(flag))) fail(usage);
try {
  switch (command) {
    case 'up': {
      const count = argument === undefined ? 3 : Number(argument);
      if (String(argument ?? '3').length > 1 || !Number.isInteger(count) || count < 1 || count > MAX_NODES)
        fail(`N must be 1 to ${MAX_NODES}`);
      await withLock(() =>
        up(count, flags.includes('--tls')).catch((error) => {
          throw new Error(`${error.message}\n(npm run swarm:local -- down removes what up made)`);
        }),
      );
      break;
    }
    case 'down':
      await withLock(down);
      break;
    case 'stop':
      await withLock(() => stop(requireNode(readState(), argument)));
      break;
    case 'start':
      await withLock(() => {
        const state = readState();
        return start(state, requireNode(state, argument));
      });
      break;
    case 'status':
      await status(flags.includes('--json'));
      break;
    default:
      fail(usage);
  }
} catch (error) {
  fail(error.message);
}
