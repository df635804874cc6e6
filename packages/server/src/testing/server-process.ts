import { type ChildProcess, spawn } from 'node:child_process';
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

/** `src/main.ts` as its own process (as `npm start` runs the server), with these variables over ours. */
export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
