#!/usr/bin/env node
// `npm start`: the whole set-up on a fresh clone, then the server.
//   1. install dependencies when node_modules is missing or older than package-lock.json
//   2. build the console when packages/web/dist is missing or older than its sources
//   3. bundle the server into packages/server/dist/main.mjs when it is missing or older than its sources
//   4. on a first start with PGlite, make the migrated database template (packages/server/src/db/
//      pglite-template.ts) so the new data directory needs no initdb
//   5. run the server (it applies migrations, ensures the default stack and prints its URL),
//      forwarding signals and the exit code.
// Only Node built-ins here: this runs before dependencies exist.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnvironment } from './server-process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function log(message) {
  console.log(`[berth] ${message}`);
}

// The Node version package.json promises (engines.node, ">=N"), checked before anything else runs.
const needed = Number(
  />=\s*(\d+)/.exec(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? '')?.[1] ??
    0,
);
if (Number(process.versions.node.split('.')[0]) < needed) {
  console.error(`[berth] Berth needs Node.js ${needed} or newer; this is Node.js ${process.version}.`);
  process.exit(1);
}

/** Runs a command in the repository root; exits on failure unless allowFailure (then returns false). */
function run(command, args, { allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.error) throw result.error;
  if (result.status === 0) return true;
  if (allowFailure) return false;
  console.error(`[berth] \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
  process.exit(result.status || 1);
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of a file or of any file below a directory (0 when absent). */
function newest(path) {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let max = stats.mtimeMs; // a deleted file shows up as a newer directory
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

function installIfNeeded() {
  const lock = join(root, 'package-lock.json');
  // npm writes node_modules/.package-lock.json on every install, just after package-lock.json:
  // a lock file clearly newer than it means someone pulled new dependencies since.
  const installed = mtime(join(root, 'node_modules', '.package-lock.json'));
  const missing = !existsSync(join(root, 'node_modules', '.bin', 'tsx'));
  if (!missing && installed + 2000 >= mtime(lock)) return;
  if (existsSync(lock)) {
    log(missing ? 'installing dependencies (npm ci)...' : 'package-lock.json changed: npm ci...');
    if (run(npm, ['ci', '--no-audit', '--no-fund'], { allowFailure: true })) return;
    // npm ci also refuses a lock file that lacks other platforms' optional packages (a registry
    // mirror without them produces such locks); npm install still installs the locked versions.
    log('npm ci refused (see above): falling back to npm install...');
  } else {
    log('installing dependencies (npm install)...');
  }
  run(npm, ['install', '--no-audit', '--no-fund']);
}

const webSources = [
  'packages/web/src',
  'packages/web/public',
  'packages/web/index.html',
  'packages/web/package.json',
  'packages/web/vite.config.ts',
  // The build's own plugins (precompression, the route table).
  'packages/web/build',
  'packages/web/tsconfig.json',
  'packages/core/src',
  'packages/core/package.json',
  'package-lock.json',
];

const serverSources = [
  'packages/server/src',
  'packages/server/build-server.mjs',
  'packages/server/package.json',
  'packages/core/src',
  'packages/core/package.json',
  'package-lock.json',
];

/** Runs `command` when `output` is missing or older than the newest file of `sources`. */
function rebuildIfStale({ output, sources, what, command, args }) {
  const built = mtime(join(root, output));
  const changed = Math.max(...sources.map((path) => newest(join(root, path))));
  if (built > 0 && built >= changed) return;
  log(built ? `${what} sources changed: rebuilding...` : `building ${what}...`);
  run(command, args);
}

function databaseTemplateIfNeeded() {
  if (process.env.DATABASE_URL) return;
  const dataDir = resolve(root, process.env.BERTH_DATA_DIR || '.berth');
  if (existsSync(join(dataDir, 'pgdata', 'PG_VERSION'))) return;
  // Only a speed-up: without it the server runs initdb itself.
  run(process.execPath, ['--import', 'tsx', 'packages/server/src/db/build-pglite-template.ts'], {
    allowFailure: true,
  });
}

function serve() {
  const child = spawn(process.execPath, ['packages/server/dist/main.mjs'], {
    cwd: root,
    stdio: 'inherit',
    env: serverEnvironment(process.env),
  });

  // A Ctrl-C in a terminal reaches the whole process group (and npm forwards it again), so the
  // server may already have it: forward each signal once, and again only if repeated later.
  const forwardedAt = new Map();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      const now = Date.now();
      if (now - (forwardedAt.get(signal) ?? 0) < 1000) return;
      forwardedAt.set(signal, now);
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    });
  }
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  });

  child.on('error', (error) => {
    console.error(`[berth] could not start the server: ${error.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    if (signal) {
      // Exit the way the server did, so callers see the same signal.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code ?? 1);
  });
}

installIfNeeded();
rebuildIfStale({
  output: 'packages/web/dist/index.html',
  sources: webSources,
  what: 'the console (packages/web)',
  command: npm,
  args: ['run', 'build', '-w', '@berth/web'],
});
rebuildIfStale({
  output: 'packages/server/dist/main.mjs',
  sources: serverSources,
  what: 'the server bundle (packages/server)',
  command: process.execPath,
  args: ['packages/server/build-server.mjs'],
});
databaseTemplateIfNeeded();
serve();
