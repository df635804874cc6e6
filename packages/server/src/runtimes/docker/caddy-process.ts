import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { carryEdgeConfig, createEdgeClient, type EdgeSettings, edgeBaseConfig } from './caddy-edge.ts';

export interface EdgeProcessOptions extends EdgeSettings {
  /** The Caddy binary. */
  caddyPath: string;
  /** Its directory: configuration, saved state, certificates and log. */
  dir: string;
  /** Told when Caddy stops by itself or cannot start (the server's log). */
  onProblem?: (message: string) => void;
}

const FIRST_RETRY_MS = 1000;
const LONGEST_RETRY_MS = 30_000;
const READY_TIMEOUT_MS = 15_000;

/** Where the edge's directory keeps what Caddy saved last (XDG_CONFIG_HOME/caddy/autosave.json). */
const savedConfigPath = (dir: string) => path.join(dir, 'config', 'caddy', 'autosave.json');

/**
 * Runs the edge (Caddy) as a child of the server and starts it again when it stops, sooner the first
 * times. Each start lays the endpoints Caddy saved last into a configuration built from the current
 * settings, so endpoints outlive Caddy and Berth restarts and changed ports apply.
 */
export function superviseEdge(options: EdgeProcessOptions) {
  const client = createEdgeClient(options);
  let child: ChildProcess | null = null;
  let closing = false;
  let retryMs = FIRST_RETRY_MS;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why Caddy could not be started at all (no binary): no retry helps. */
  let cannotStart: string | null = null;

  function writeConfig(): string {
    fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    // Its configuration holds private keys and tokens, and its socket drives it: this user only, even
    // for a directory or file made before with looser modes.
    fs.chmodSync(options.dir, 0o700);
    let saved: unknown = null;
    try {
      saved = JSON.parse(fs.readFileSync(savedConfigPath(options.dir), 'utf8'));
    } catch {
      // First start, or a save cut short: the endpoints come back as their operations run again.
    }
    const file = path.join(options.dir, 'caddy.json');
    fs.writeFileSync(file, JSON.stringify(carryEdgeConfig(edgeBaseConfig(options), saved), null, 2), {
      mode: 0o600,
    });
    fs.chmodSync(file, 0o600);
    return file;
  }

  function launch() {
    if (closing) return;
    const file = writeConfig();
    // A socket left by a Caddy that was killed would stop the new one binding it.
    fs.rmSync(options.adminSocket, { force: true });
    const log = fs.openSync(path.join(options.dir, 'caddy.log'), 'a');
    const started = Date.now();
    const proc = spawn(options.caddyPath, ['run', '--config', file], {
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(options.dir, 'config'),
        XDG_DATA_HOME: path.join(options.dir, 'data'),
        HOME: options.dir,
      },
    });
    fs.closeSync(log);
    child = proc;
    proc.once('error', (error) => {
      cannotStart = `The edge (${options.caddyPath}) cannot start: ${error.message}. Install Caddy (Debian: apt-get install caddy) or set BERTH_CADDY_PATH.`;
      options.onProblem?.(cannotStart);
    });
    proc.once('exit', (code, signal) => {
      if (child === proc) child = null;
      if (closing) return;
      // A Caddy that ran a while before it stopped starts again promptly.
      if (Date.now() - started > LONGEST_RETRY_MS) retryMs = FIRST_RETRY_MS;
      options.onProblem?.(
        `The edge (Caddy) stopped (${signal ?? `exit code ${code}`}); starting it again in ${retryMs / 1000} s. Its log: ${path.join(options.dir, 'caddy.log')}`,
      );
      retryTimer = setTimeout(launch, retryMs);
      retryTimer.unref();
      retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
    });
  }

  return {
    /** Starts Caddy and resolves once its admin API answers. */
    async start() {
      // A Caddy left running by a server that was killed holds the ports: it is asked to stop first.
      try {
        await client.check();
        await client.shutdown();
        options.onProblem?.('Stopped the edge (Caddy) a previous server left running');
        await new Promise((resolve) => setTimeout(resolve, 500));
      } catch {
        // None answers: the usual case.
      }
      launch();
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (;;) {
        try {
          await client.check();
          return;
        } catch (error) {
          if (cannotStart) throw new Error(cannotStart);
          if (Date.now() > deadline)
            throw new Error(
              `The edge (Caddy) did not start within ${READY_TIMEOUT_MS / 1000} s: ${(error as Error).message}. Its log: ${path.join(options.dir, 'caddy.log')}`,
            );
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    /** Stops Caddy (its endpoints stop answering until the next start). */
    async stop() {
      closing = true;
      if (retryTimer) clearTimeout(retryTimer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    },
    /** The running Caddy's process id (tests stop it by hand). */
    pid: () => child?.pid ?? null,
  };
}
export type EdgeProcess = ReturnType<typeof superviseEdge>;
