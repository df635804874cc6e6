#!/usr/bin/env node
// A throwaway PostgreSQL for the server tests (they create and drop their own databases in it).
//
//   node scripts/test-postgres.mjs start       start one; prints only its URL on stdout
//   node scripts/test-postgres.mjs stop        stop it and delete its files
//   node scripts/test-postgres.mjs run -- CMD  start, run CMD with TEST_DATABASE_URL set, stop
//                                              (e.g. `node scripts/test-postgres.mjs run -- npm test`)
//
// The cluster lives in a fresh temporary directory, listens on 127.0.0.1 only (first free port from
// 55432, or PGPORT_TEST) with its socket in that directory, trusts local connections and skips
// fsync: it is for tests and is deleted on stop. PostgreSQL refuses to run as root, so as root it
// runs as the `postgres` user. Binaries: PG_BIN, else the newest /usr/lib/postgresql/*/bin, else PATH.
// State (directory, port) is kept in .test-reports/postgres.json so `stop` finds it.
import { spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stateFile = process.env.BERTH_TEST_PG_STATE ?? join(root, '.test-reports', 'postgres.json');
const isRoot = process.getuid?.() === 0;

const log = (message) => console.error(`[test-postgres] ${message}`);

function fail(message) {
  log(message);
  process.exit(1);
}

function binDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  return ''; // rely on PATH
}

function tool(name) {
  const dir = binDir();
  return dir ? join(dir, name) : name;
}

/** Runs a PostgreSQL tool, as the postgres user when we are root; throws on failure. */
function pg(name, args, { quiet = false } = {}) {
  const command = isRoot ? 'runuser' : tool(name);
  const fullArgs = isRoot ? ['-u', 'postgres', '--', tool(name), ...args] : args;
  const result = spawnSync(command, fullArgs, {
    cwd: tmpdir(), // the postgres user may not be allowed into the current directory
    stdio: ['ignore', quiet ? 'ignore' : process.stderr, quiet ? 'ignore' : process.stderr],
  });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${name} ${args.join(' ')} failed (exit ${result.status})`);
}

function postgresIds() {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) {
    fail('running as root needs the `postgres` user (apt-get install postgresql creates it)');
  }
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer()
      .once('error', () => resolve(false))
      .listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function freePort() {
  const first = Number(process.env.PGPORT_TEST ?? 55432);
  for (let port = first; port < first + 100; port += 1) {
    if (await portIsFree(port)) return port;
  }
  fail(`no free port in ${first}..${first + 99}`);
}

function readState() {
  try {
    return JSON.parse(readFileSync(stateFile, 'utf8'));
  } catch {
    return null;
  }
}

async function start() {
  const previous = readState();
  if (previous) {
    log(`a previous instance is recorded in ${stateFile}; stopping it first`);
    stop();
  }
  if (!existsSync(tool('pg_ctl')) && binDir()) fail(`no pg_ctl in ${binDir()}`);
  const dir = mkdtempSync(join(tmpdir(), 'berth-pg-'));
  if (isRoot) {
    const { uid, gid } = postgresIds();
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  try {
    pg('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-locale', '--no-sync'], {
      quiet: true,
    });
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=200',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    pg('pg_ctl', ['-D', data, '-l', join(dir, 'postgres.log'), '-o', options, '-w', '-t', '60', 'start'], {
      quiet: true,
    });
  } catch (error) {
    const logFile = join(dir, 'postgres.log');
    if (existsSync(logFile)) process.stderr.write(readFileSync(logFile, 'utf8'));
    rmSync(dir, { recursive: true, force: true });
    fail(`could not start PostgreSQL: ${error.message}`);
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify({ dir, data, port, url }, null, 2)}\n`);
  log(`PostgreSQL running at ${url} (files in ${dir})`);
  return url;
}

function stop() {
  const state = readState();
  if (!state) {
    log('nothing to stop');
    return;
  }
  try {
    pg('pg_ctl', ['-D', state.data, '-m', 'fast', '-w', '-t', '60', 'stop'], { quiet: true });
    log(`stopped PostgreSQL on port ${state.port}`);
  } catch (error) {
    log(`pg_ctl stop: ${error.message} (already stopped?)`);
  }
  rmSync(state.dir, { recursive: true, force: true });
  rmSync(stateFile, { force: true });
}

async function run(command) {
  if (command.length === 0) fail('usage: test-postgres.mjs run -- COMMAND [ARGS...]');
  const url = await start();
  const child = spawn(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: url },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => {
    child.on('error', (error) => {
      log(error.message);
      resolve(1);
    });
    child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  stop();
  process.exit(code);
}

const [action, ...rest] = process.argv.slice(2);
switch (action) {
  case 'start':
    console.log(await start());
    break;
  case 'stop':
    stop();
    break;
  case 'run':
    await run(rest[0] === '--' ? rest.slice(1) : rest);
    break;
  default:
    fail('usage: test-postgres.mjs start | stop | run -- COMMAND');
}
