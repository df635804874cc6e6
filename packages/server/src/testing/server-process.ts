import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A loopback port nothing listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });

export interface ServerProcess {
  child: ChildProcess;
  /** Everything it printed so far, both streams. */
  output(): string;
}

/**
 * `src/main.ts` as its own process (as `npm start` runs the server), with these variables over ours;
 * `processGroup`: in a process group of its own (its id the server's), which a test signals as a
 * terminal's Ctrl-C signals the foreground group. `bundle`: run the bundle `bundleServer` made instead
 * of the sources through tsx.
 */
export function spawnServer(
  env: Record<string, string>,
  options: { processGroup?: boolean; bundle?: string } = {},
): ServerProcess {
  const command = options.bundle ? [options.bundle] : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(process.execPath, command, {
    cwd: serverRoot,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.processGroup ?? false,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/** Waits for the start banner; throws with the output if it stops or takes a minute. */
export async function untilRunning(server: ServerProcess): Promise<ServerProcess> {
  const deadline = Date.now() + 60_000;
  while (!server.output().includes('Berth is running')) {
    if (server.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`The server did not start: ${server.output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return server;
}

/** Its exit code once it has exited. */
export const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/**
 * The server bundled by esbuild as `npm run build` bundles it, but split at its dynamic imports, so a
 * start its configuration stops loads nothing more: such a process exits three times sooner than through
 * tsx, which counts in a test that starts one per variable. Made under packages/server (there it finds its
 * files and dependencies as dist/main.mjs does); `remove` deletes it.
 */
export async function bundleServer(): Promise<{ entry: string; remove(): void }> {
  const { build } = await import('esbuild');
  const cache = path.join(serverRoot, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  const outdir = fs.mkdtempSync(path.join(cache, 'berth-test-server-'));
  const { dependencies } = JSON.parse(fs.readFileSync(path.join(serverRoot, 'package.json'), 'utf8'));
  const external = Object.keys(dependencies).filter((name) => name !== '@berth/core');
  await build({
    entryPoints: [path.join(serverRoot, 'src', 'main.ts')],
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...external, ...external.map((name) => `${name}/*`)],
    logLevel: 'warning',
  });
  return {
    entry: path.join(outdir, 'main.mjs'),
    remove: () => fs.rmSync(outdir, { recursive: true, force: true }),
  };
}
