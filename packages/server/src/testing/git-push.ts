import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A real git client for tests that push to an app's remote: a work tree to commit in, and pushes
// whose output (git's `remote: …` lines on stderr) can be watched while the push is still running.

const exec = promisify(execFile);
const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', LANG: 'C', LC_ALL: 'C' };

export interface RunningPush {
  /** What git has printed so far, both streams. */
  output(): string;
  /** Resolves once the output holds `text` (rejects when the push ends first, or after `timeoutMs`). */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  /** How it ended: git's exit code and everything it printed. */
  done: Promise<{ code: number; output: string }>;
  kill(): void;
}

export function gitWorkTree() {
  const dir = fs.mkdtempSync(path.join(tmpdir(), 'berth-push-'));
  const git = async (...args: string[]) =>
    (
      await exec('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
        cwd: dir,
        env: gitEnv,
      })
    ).stdout.trim();

  return {
    dir,
    git,
    /** Writes the files and commits them; answers the new commit's id. */
    async commit(files: Record<string, string>, message = 'Change'): Promise<string> {
      if (!fs.existsSync(path.join(dir, '.git'))) await git('init', '--quiet', '-b', 'main');
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      await git('add', '.');
      await git('commit', '--quiet', '--allow-empty', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    /** Starts `git push <remote> <refspecs…>` (asynchronously: the server may run in this very process). */
    push(remote: string, ...refspecs: string[]): RunningPush {
      // A process group of its own: killing the push kills git's HTTP helper too, and so the connection.
      const child = spawn('git', ['push', remote, ...refspecs], { cwd: dir, env: gitEnv, detached: true });
      let output = '';
      const waiters = new Set<() => void>();
      const collect = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        for (const check of waiters) check();
      };
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      let ended = false;
      const done = new Promise<{ code: number; output: string }>((resolve) =>
        child.on('close', (code) => {
          ended = true;
          for (const check of waiters) check();
          resolve({ code: code ?? 1, output });
        }),
      );
      return {
        output: () => output,
        done,
        kill: () => {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        },
        waitFor(text, timeoutMs = 20_000) {
          return new Promise<void>((resolve, reject) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              reject(new Error(`The push did not print "${text}" in ${timeoutMs} ms:\n${output}`));
            }, timeoutMs);
            const check = () => {
              if (!output.includes(text) && !ended) return;
              waiters.delete(check);
              clearTimeout(timer);
              if (output.includes(text)) resolve();
              else reject(new Error(`The push ended without printing "${text}":\n${output}`));
            };
            waiters.add(check);
            check();
          });
        },
      };
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The push's end, while a test server whose worker runs only when drained (testApp) works its queue: the
 * deploy the push waits for runs meanwhile.
 */
export async function pushWhileDraining(push: RunningPush, drain: () => Promise<void>) {
  let ended = false;
  void push.done.then(() => {
    ended = true;
  });
  while (!ended) {
    await drain();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return push.done;
}
