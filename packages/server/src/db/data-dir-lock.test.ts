import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from './data-dir-lock.ts';

// Issue 19: one server per data directory.

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
const fresh = () => {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-lock-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A process that lives until killed. */
function sleeper(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

describe('the data directory lock', () => {
  it('is taken and released, refused while a live process holds it, and recovered from a dead one', async () => {
    const dir = fresh();
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);

    const holder = sleeper();
    fs.writeFileSync(path.join(dir, LOCK_FILE), `${holder.pid}\n`);
    try {
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(
        `The data directory ${dir} is in use by another Berth process (pid ${holder.pid}); stop it first, or set BERTH_DATA_DIR to another directory.`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
    await exited(holder);
    // Its holder is gone (killed): the next start takes it over.
    const again = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    again();
    // A half-written lock holds no process.
    fs.writeFileSync(path.join(dir, LOCK_FILE), '');
    lockDataDir(dir)();
  });

  it('stops a second server on the same directory with one line, and the first stops cleanly on SIGTERM', async () => {
    const dir = fresh();
    const port = () =>
      new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const address = probe.address();
          probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
        });
      });
    const start = async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverRoot,
        env: {
          ...process.env,
          DATABASE_URL: '',
          BERTH_DATA_DIR: dir,
          PORT: String(await port()),
          LOG_LEVEL: 'warn',
        },
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
    };
    const first = await start();
    try {
      const deadline = Date.now() + 60_000;
      while (!first.output().includes('Berth is running') && Date.now() < deadline) {
        if (first.child.exitCode !== null) throw new Error(`The first server stopped: ${first.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(first.output()).toContain('Berth is running');

      const second = await start();
      expect(await exited(second.child)).toBe(1);
      expect(second.output().trim()).toBe(
        `The data directory ${dir} is in use by another Berth process (pid ${first.child.pid}); stop it first, or set BERTH_DATA_DIR to another directory.`,
      );
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await exited(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  }, 90_000);
});
