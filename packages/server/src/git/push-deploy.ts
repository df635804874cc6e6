import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { CallerAccess } from '../auth/caller-access.ts';
import { ApiError } from '../http/errors.ts';
import type { OperationsService } from '../operations/operations.service.ts';
import type { GitRepositoriesService, GitRepository } from './git-repositories.service.ts';
import {
  type HeldAnswer,
  isZeroId,
  PushAnswer,
  type PushCommand,
  type PushRequest,
} from './receive-pack-stream.ts';

// The deploy a push starts, told to the pushing client as it runs (as Heroku's git remote does): git
// has stored the code and written its report; Berth holds the report back, starts the deploy, sends
// each new line of its log as `remote: …`, then ends with the app's URLs, or refuses the branch (the
// client prints `! [remote rejected]` and exits non-zero) and puts it back where it was, so pushing
// the same commit again retries. A deploy may run in any worker process: it is followed through the
// database. Done after git's answer rather than in a pre-receive hook: there the pushed objects sit in
// a quarantine that only git's own processes see, so the build (another process, maybe another
// worker) could not read them, and a hook cannot see a deploy that waits in the queue.

/** How often a followed deploy's new log lines are read. */
const FOLLOW_POLL_MS = 300;
/** After this long without a word to the client, a keepalive packet goes, so no proxy cuts the answer. */
const KEEPALIVE_MS = 10_000;

export interface PushDeployDeps {
  repositories: GitRepositoriesService;
  operations: OperationsService;
  /** The console's origin: an operation's page, an app's endpoints. */
  publicUrl: string;
  /** Aborted as the server stops: a push still waiting gets git's report, and its deploy goes on. */
  stopping: AbortSignal;
  log: FastifyBaseLogger;
}

export interface AcceptedPush {
  caller: CallerAccess;
  repository: GitRepository;
  request: PushRequest;
  held: HeldAnswer;
  raw: ServerResponse;
}

/** `2026-01-01 12:00:00 +0000 INFO -- : message` (queue.ts logLine) as a client shows it. */
export function shownLine(line: string): { text: string; error: boolean } {
  const marker = line.indexOf(' -- : ');
  const level = marker > 0 && marker <= 40 ? line.slice(line.lastIndexOf(' ', marker - 1) + 1, marker) : '';
  if (level !== 'INFO' && level !== 'WARN' && level !== 'ERROR') return { text: line, error: false };
  const message = line.slice(marker + ' -- : '.length);
  // git colours lines starting with these words on a terminal.
  if (level === 'ERROR') return { text: `error: ${message}`, error: true };
  return { text: level === 'WARN' ? `warning: ${message}` : message, error: false };
}

/** Why a failed deploy failed, from its last error line (the worker's own, `Operation N failed: …`). */
export function failureReason(lastError: string, operationId: number): string {
  const prefix = `error: Operation ${operationId} failed: `;
  const message = lastError.startsWith(prefix)
    ? lastError.slice(prefix.length)
    : lastError.slice('error: '.length);
  return message ? `deploy failed: ${message}` : 'deploy failed';
}

const short = (id: string) => id.slice(0, 7);

/**
 * Ends the answer to a push git took in. A push that moved no deploy branch gets git's report as it
 * was. A client that leaves mid-deploy changes nothing: the deploy goes on, and its branch is rolled
 * back all the same when it fails.
 */
export async function answerPush(deps: PushDeployDeps, push: AcceptedPush): Promise<void> {
  const { raw, repository } = push;
  const answer = new PushAnswer(push.held, push.request.capabilities);
  let lastWrite = Date.now();
  const send = (bytes: Buffer) => {
    if (bytes.length === 0 || raw.destroyed || raw.writableEnded) return;
    raw.write(bytes);
    lastWrite = Date.now();
  };
  const say = (...lines: string[]) => send(answer.progress(lines));
  const end = (rejection?: { ref: string; reason: string }) => {
    if (!raw.destroyed && !raw.writableEnded) raw.end(answer.end(rejection));
  };

  /** Refuses the branch and puts it back where the push found it. */
  async function refuse(branch: string, command: PushCommand, reason: string) {
    if (await deps.repositories.rollBack(repository, command))
      say(
        isZeroId(command.oldId)
          ? `${branch} was not kept: push again to retry`
          : `${branch} is back at ${short(command.oldId)}: push again to retry`,
      );
    end({ ref: command.ref, reason });
  }

  const report = push.held.report;
  const accepted = report
    ? new Set(report.refs.filter((status) => status.ok).map((status) => status.ref))
    : null;
  const pushed = await deps.repositories.pushedDeployBranch(repository, push.request.commands, accepted);
  if (!pushed) return end();
  const { branch, command } = pushed;
  let operationId: number;
  try {
    operationId = (await deps.repositories.deploy(push.caller, repository, command.newId)).id;
  } catch (error) {
    // Refused as the API would refuse it (a full queue, a missing permission): the reason is the API's.
    if (!(error instanceof ApiError)) deps.log.error({ err: error }, 'a push could not start its deploy');
    const reason = error instanceof ApiError ? error.message : 'Berth could not start it';
    return refuse(branch, command, `deploy not started: ${reason}`);
  }
  deps.log.info({ operationId, branch }, 'deploy started by a push');
  const page = `${deps.publicUrl}/operations/${operationId}`;
  say(
    `Deploying ${branch} (${short(command.newId)}) to ${repository.environmentHandle}/${repository.appHandle}: ${page}`,
  );

  const keepalive = setInterval(() => {
    if (Date.now() - lastWrite >= KEEPALIVE_MS) send(answer.keepalive());
  }, KEEPALIVE_MS / 2);
  let lastError = '';
  let ended: 'succeeded' | 'failed' | null;
  try {
    ended = await deps.operations.follow(
      operationId,
      (lines) => {
        const shown = lines.map(shownLine);
        for (const line of shown) if (line.error) lastError = line.text;
        say(...shown.map((line) => line.text));
      },
      { signal: deps.stopping, pollMs: FOLLOW_POLL_MS },
    );
  } finally {
    clearInterval(keepalive);
  }

  if (ended === 'failed') return refuse(branch, command, failureReason(lastError, operationId));
  if (ended === null) {
    // Stopped following: the server stops (the deploy goes on), or the operation was deleted with its organization.
    say(
      deps.stopping.aborted
        ? `Berth is stopping; the deploy goes on: follow it at ${page}`
        : `The deploy's operation is gone: ${page}`,
    );
    return end();
  }
  const urls = await deps.repositories.urls(repository.appId);
  if (urls.length > 0) say(`Deployed ${repository.appHandle}: ${urls.join(' ')}`);
  else
    say(
      `Deployed ${repository.appHandle}. It has no endpoint yet: add one to open it on the web at ${deps.publicUrl}/apps/${repository.appId}/endpoints/create`,
    );
  end();
}
