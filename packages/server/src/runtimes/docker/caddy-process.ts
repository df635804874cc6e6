import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { carryEdgeConfig, createEdgeClient, type EdgeSettings, edgeBaseConfig } from './caddy-edge.ts';
import { edgeStopsWithService } from './edge-systemd.ts';
import { ensureRequestMigration } from './request-migration.ts';

export interface EdgeProcessOptions extends EdgeSettings {
  /** The Caddy binary. */
  caddyPath: string;
  /** Its directory: configuration, pid file, saved state, certificates and log. */
  dir: string;
  /** Told when Caddy stops by itself or cannot start (the server's log). */
  onProblem?: (message: string) => void;
  /** Told what becomes of the edge at a start or stop that is no problem (taken over, left running). */
  onNotice?: (message: string) => void;
}

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;
const READY_TIMEOUT_MS = 15_000;
/** How often the server looks whether the edge still runs. */
const WATCH_MS = 1000;
const STOP_TIMEOUT_MS = 5000;

/** Where the edge's directory keeps what Caddy saved last (XDG_CONFIG_HOME/caddy/autosave.json). */
const savedConfigPath = (dir: string) => path.join(dir, 'config', 'caddy', 'autosave.json');
/** The running edge's process id: it outlives the server, so the next start finds it there. */
export const edgePidFile = (dir: string) => path.join(dir, 'caddy.pid');
const configFile = (dir: string) => path.join(dir, 'caddy.json');
const logFile = (dir: string) => path.join(dir, 'caddy.log');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process runs this directory's edge configuration (`<caddy> run --config <dir>/caddy.json`). */
function runsEdgeConfig(pid: number, dir: string): boolean {
  if (fs.existsSync('/proc/self')) {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(configFile(dir));
    } catch {
      // Gone meanwhile.
      return false;
    }
  }
  // Without /proc (macOS, the BSDs), ps tells, its arguments joined by spaces (-ww: never cut short).
  try {
    const command = execFileSync('ps', ['-ww', '-o', 'command=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return command.trim().endsWith(` --config ${configFile(dir)}`);
  } catch {
    // Gone meanwhile, or no ps to ask: never taken for the edge.
    return false;
  }
}

/**
 * The edge of this directory while it runs: the pid file's process, if it is alive and runs this
 * directory's configuration, so a process that took a dead edge's id is never touched.
 */
export function runningEdgePid(dir: string): number | null {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(edgePidFile(dir), 'utf8').trim(), 10);
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  return runsEdgeConfig(pid, dir) ? pid : null;
}

/** Stops the process and waits for it to go, killing it when it takes longer than STOP_TIMEOUT_MS. */
async function terminate(pid: number) {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
      break;
    }
    await sleep(50);
  }
  while (alive(pid)) await sleep(50);
}

/**
 * Stops the edge of this directory for good (`npm run admin -- stop-edge`, and tests): its endpoints
 * stop answering until a server on the docker runtime starts it again. The pid it stopped, or null when
 * none ran.
 */
export async function stopEdge(dir: string): Promise<number | null> {
  const pid = runningEdgePid(dir);
  if (pid !== null) await terminate(pid);
  fs.rmSync(edgePidFile(dir), { force: true });
  return pid;
}

/**
 * What of the server's environment Caddy reads: the trust store and HTTPS proxy of its ACME client (Go's
 * crypto/x509 and net/http). Not HTTP_PROXY: Caddy 2.7 and later would send plain requests to the
 * containers through it. Nothing else passes: Caddy outlives the server and must keep none of its
 * secrets (BERTH_JWT_SECRET, DATABASE_URL, mail and payment credentials), nor NOTIFY_SOCKET (it would
 * speak to systemd for the server) or CADDY_ADMIN.
 */
const CADDY_READS = [
  'PATH',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'HTTPS_PROXY',
  'https_proxy',
  'NO_PROXY',
  'no_proxy',
];

/** The edge's environment: its own directories, and what it reads of the server's. */
function edgeEnvironment(dir: string): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of CADDY_READS) if (process.env[name] !== undefined) environment[name] = process.env[name];
  return {
    ...environment,
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    XDG_DATA_HOME: path.join(dir, 'data'),
    HOME: dir,
  };
}

/** The binary a command name runs (PATH for a bare name), with symbolic links resolved; null if none. */
function resolveBinary(command: string): string | null {
  const candidates = command.includes('/')
    ? [path.resolve(command)]
    : (process.env.PATH ?? '').split(path.delimiter).map((folder) => path.join(folder, command));
  for (const candidate of candidates) {
    try {
      return fs.realpathSync(candidate);
    } catch {
      // Not there: the next folder.
    }
  }
  return null;
}

/**
 * Why the running edge is not the binary a new start would run (an upgraded Caddy, another
 * BERTH_CADDY_PATH), or null. Only where /proc tells.
 */
function outdatedBinary(pid: number, caddyPath: string): string | null {
  let running: string;
  try {
    running = fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
  if (running.endsWith(' (deleted)'))
    return `runs ${running.replace(/ \(deleted\)$/, '')} as it was before it was replaced (an upgrade)`;
  const wanted = resolveBinary(caddyPath);
  return wanted && wanted !== running ? `runs ${running}, not ${wanted} (BERTH_CADDY_PATH)` : null;
}

/**
 * Runs the edge (Caddy) as a process of its own that outlives the server: in its own session (a Ctrl-C
 * to the server's terminal does not reach it), its output in its log, its id in `caddy.pid`. A starting
 * server takes over an edge that runs already: it lays the endpoints that edge serves into a
 * configuration built from the current settings and loads it through the admin API, which keeps serving
 * the old configuration until the new one runs. While the server runs it starts the edge again when it
 * stops, sooner the first times; when the server stops, the edge keeps serving.
 */
export function superviseEdge(options: EdgeProcessOptions) {
  const client = createEdgeClient(options);
  let pid: number | null = null;
  let closing = false;
  let retryMs = FIRST_RETRY_MS;
  let launchedAt = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Why Caddy could not be started at all (no binary): no retry helps. */
  let cannotStart: string | null = null;

  function prepareDir() {
    fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    // Its configuration holds private keys and tokens, and its socket drives it: this user only, even
    // for a directory made before with looser modes.
    fs.chmodSync(options.dir, 0o700);
  }

  /** The configuration for this start: the endpoints of `previous` laid into today's settings. */
  const desiredConfig = (previous: unknown) => carryEdgeConfig(edgeBaseConfig(options), previous);

  function writePrivately(file: string, text: string) {
    fs.writeFileSync(file, text, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }

  function launch() {
    if (closing) return;
    cannotStart = null;
    let saved: unknown = null;
    try {
      saved = JSON.parse(fs.readFileSync(savedConfigPath(options.dir), 'utf8'));
    } catch {
      // First start, or a save cut short: the endpoints come back as their operations run again.
    }
    writePrivately(configFile(options.dir), JSON.stringify(desiredConfig(saved), null, 2));
    // A socket left by a Caddy that was killed would stop the new one binding it.
    fs.rmSync(options.adminSocket, { force: true });
    const log = fs.openSync(logFile(options.dir), 'a', 0o600);
    launchedAt = Date.now();
    const proc = spawn(options.caddyPath, ['run', '--config', configFile(options.dir)], {
      // Its own session and process group: signals to the server's group (Ctrl-C) pass it by.
      detached: true,
      stdio: ['ignore', log, log],
      env: edgeEnvironment(options.dir),
    });
    fs.closeSync(log);
    proc.once('error', (error) => {
      cannotStart = `The edge (${options.caddyPath}) cannot start: ${error.message}. Install Caddy (Debian: apt-get install caddy) or set BERTH_CADDY_PATH.`;
      options.onProblem?.(cannotStart);
    });
    // The server may stop while it runs on.
    proc.unref();
    pid = proc.pid ?? null;
    if (pid !== null) writePrivately(edgePidFile(options.dir), `${pid}\n`);
  }

  /** Looks every WATCH_MS whether the edge runs; starts it again when it stopped. */
  function watch() {
    timer = setTimeout(() => {
      if (closing) return;
      if (pid !== null && alive(pid)) return watch();
      // A Caddy that ran a while before it stopped starts again promptly.
      if (Date.now() - launchedAt > LONGEST_RETRY_MS) retryMs = FIRST_RETRY_MS;
      if (!cannotStart)
        options.onProblem?.(
          `The edge (Caddy) stopped; starting it again in ${retryMs / 1000} s. Its log: ${logFile(options.dir)}`,
        );
      timer = setTimeout(() => {
        launch();
        watch();
      }, retryMs);
      timer.unref();
      retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    }, WATCH_MS);
    timer.unref();
  }

  async function untilAnswering(deadline: number): Promise<boolean> {
    for (;;) {
      try {
        await client.check();
        return true;
      } catch {
        if (cannotStart) throw new Error(cannotStart);
        if (Date.now() > deadline) return false;
        await sleep(100);
      }
    }
  }

  /** Takes over the running edge: today's settings with the endpoints it serves, loaded at once. */
  async function adopt(running: number) {
    await client.load(desiredConfig(await client.currentConfig()));
    pid = running;
    launchedAt = Date.now();
    options.onNotice?.(`The edge (Caddy, pid ${running}) was running: this server took it over`);
    const outdated = outdatedBinary(running, options.caddyPath);
    if (outdated)
      options.onNotice?.(
        `The edge (Caddy, pid ${running}) ${outdated}. It keeps serving; to run the new binary, stop Berth, run \`npm run admin -- stop-edge\` and start Berth (endpoints do not answer for about a second)`,
      );
  }

  /** Says so when the edge would not outlive the server: a systemd unit's stop would end it too. */
  async function warnIfStopsWithServer() {
    const warning = pid === null ? null : await edgeStopsWithService(pid);
    if (warning) options.onProblem?.(warning);
  }

  return {
    /** Takes over the running edge, or starts one; resolves once its admin API answers. */
    async start() {
      prepareDir();
      const migration = ensureRequestMigration();
      if (migration.state === 'switched-on') options.onNotice?.(migration.message);
      else if (migration.state === 'off') options.onProblem?.(migration.message);
      const running = runningEdgePid(options.dir);
      if (running !== null) {
        // One that has just been started (by a server killed meanwhile) may take a moment to answer.
        if (await untilAnswering(Date.now() + READY_TIMEOUT_MS)) {
          await adopt(running);
          watch();
          await warnIfStopsWithServer();
          return;
        }
        options.onProblem?.(
          `The edge (Caddy, pid ${running}) does not answer at ${options.adminSocket}: starting a new one`,
        );
        await terminate(running);
      } else {
        // A Caddy without a pid file on this socket (an older Berth ran it as its child) holds the
        // ports and cannot be watched: it is asked to stop.
        try {
          await client.check();
          await client.shutdown();
          options.onProblem?.('Stopped the edge (Caddy) an older Berth left running, to run one of its own');
          await sleep(500);
        } catch {
          // None answers: the usual case.
        }
      }
      launch();
      if (!(await untilAnswering(Date.now() + READY_TIMEOUT_MS)))
        throw new Error(
          `The edge (Caddy) did not start within ${READY_TIMEOUT_MS / 1000} s. Its log: ${logFile(options.dir)}`,
        );
      watch();
      await warnIfStopsWithServer();
    },
    /** Stops watching the edge and leaves it serving the endpoints (the server stops). */
    detach() {
      closing = true;
      if (timer) clearTimeout(timer);
      if (pid !== null && alive(pid))
        options.onNotice?.(
          `The edge (Caddy, pid ${pid}) keeps serving the endpoints; \`npm run admin -- stop-edge\` stops it`,
        );
    },
    /** After a start that failed: stops the edge it started (one it could not take over serves on). */
    async stop() {
      closing = true;
      if (timer) clearTimeout(timer);
      if (pid === null) return;
      await terminate(pid);
      fs.rmSync(edgePidFile(options.dir), { force: true });
    },
    /** The running Caddy's process id. */
    pid: () => pid,
  };
}
export type EdgeProcess = ReturnType<typeof superviseEdge>;
