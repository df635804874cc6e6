import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { isHttpEndpointType } from '@berth/core';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { assertAllowed, isVisible } from '../api/access/access.ts';
import type { CallerAccess } from '../auth/caller-access.ts';
import type { Db } from '../db/client.ts';
import { apps, environments, services, stacks, vhosts } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { OperationsService } from '../operations/operations.service.ts';
import { appRepository, resolveCommit } from '../runtimes/docker/git-source.ts';
import { runsRealContainers } from '../runtimes/runtime.ts';
import { isZeroId, type PushCommand } from './receive-pack-stream.ts';

// The apps' git remotes (`/git/<environment>/<app>.git`): which app a path names for a caller, its
// bare repository, and the deploy a push to its main branch starts.
//
// A deprovision removes the repository (the docker runtime's removeApp). What writes to it by its path
// here (making it, rolling a branch back) first takes a share lock on the app's row and checks the app
// is not being deprovisioned: the deprovision marks the app in the transaction that queues it, so it
// waits for such a write, and once queued no push can make the repository again for a gone app.

const run = promisify(execFile);

/** Pushing to one of these branches deploys it, as on the platforms the spec describes. */
export const DEPLOY_BRANCHES = ['main', 'master'] as const;

export interface GitRepository {
  appId: number;
  environmentHandle: string;
  appHandle: string;
  path: string;
}

export function createGitRepositoriesService(deps: {
  db: Db;
  gitDir: string;
  operations: OperationsService;
}) {
  const { db, gitDir, operations } = deps;

  /**
   * Runs `write` on the app's repository while its row is share-locked, so a deprovision cannot be
   * queued meanwhile; refuses (404, 422) when the app is gone or being deprovisioned.
   */
  async function whileAppStays<T>(repository: GitRepository, write: () => Promise<T>): Promise<T> {
    return db.transaction(async (tx) => {
      const [app] = await tx
        .select({ status: apps.status })
        .from(apps)
        .where(eq(apps.id, repository.appId))
        .for('share');
      if (!app) throw notFound('Repository');
      if (app.status === 'deprovisioning')
        throw new ApiError(422, 'unprocessable_entity', `App ${repository.appHandle} is being deprovisioned`);
      return write();
    });
  }

  return {
    /**
     * The app a remote names, for a caller who may deploy it (reading and pushing code both need the
     * deploy permission). Environment handles repeat across organizations: the caller's own decide.
     */
    async find(caller: CallerAccess, environmentHandle: string, appHandle: string): Promise<GitRepository> {
      const organizations = [...caller.actors.keys()];
      const rows = organizations.length
        ? await db
            .select({ app: apps, environment: environments, runtime: stacks.runtime })
            .from(apps)
            .innerJoin(environments, eq(apps.environmentId, environments.id))
            .innerJoin(stacks, eq(environments.stackId, stacks.id))
            .where(
              and(
                eq(environments.handle, environmentHandle),
                eq(apps.handle, appHandle),
                inArray(environments.organizationId, organizations),
              ),
            )
        : [];
      const visible = rows.filter((row) => isVisible(caller, row.environment));
      if (visible.length === 0) throw notFound('Repository');
      if (visible.length > 1)
        throw new ApiError(
          409,
          'conflict',
          `More than one of your organizations has an environment ${environmentHandle} with an app ${appHandle}: rename one of the environments to push to the other`,
        );
      const [row] = visible;
      if (!row) throw notFound('Repository');
      assertAllowed(caller, row.environment, 'app.deploy');
      if (!runsRealContainers(row.runtime))
        throw new ApiError(
          422,
          'unprocessable_entity',
          `${environmentHandle} runs on the ${row.runtime} runtime: git pushes deploy apps on docker and swarm stacks`,
        );
      return {
        appId: row.app.id,
        environmentHandle,
        appHandle,
        path: appRepository(gitDir, { appId: row.app.id }),
      };
    },

    /** Makes the app's bare repository when it has none yet (its first push). */
    async ensure(repository: GitRepository): Promise<void> {
      await whileAppStays(repository, async () => {
        if (fs.existsSync(`${repository.path}/HEAD`)) return;
        // Private as the rest of the data directory; git (the server's umask) makes its files so too.
        fs.mkdirSync(repository.path, { recursive: true, mode: 0o700 });
        await run('git', ['init', '--bare', '--quiet', '--initial-branch=main', repository.path]);
      });
    },

    /**
     * The first deploy branch the push's commands moved, that git reports it took (`accepted`: the refs
     * of its report's `ok` lines; null when it sent none to read) and that is where this push left it;
     * null when there is none. Of two pushes of the same commit racing, the one git refused starts nothing.
     */
    async pushedDeployBranch(
      repository: GitRepository,
      commands: PushCommand[],
      accepted: ReadonlySet<string> | null,
    ) {
      for (const branch of DEPLOY_BRANCHES) {
        const command = commands.find((c) => c.ref === `refs/heads/${branch}` && !isZeroId(c.newId));
        if (!command || (accepted && !accepted.has(command.ref))) continue;
        if ((await resolveCommit(repository.path, command.ref)) === command.newId) return { branch, command };
      }
      return null;
    },

    /**
     * Starts a deploy of the pushed commit as `POST /api/apps/:id/operations` would (its refusals throw):
     * the commit, not the branch's name, so a later push cannot be built in this one's place.
     */
    async deploy(caller: CallerAccess, repository: GitRepository, commit: string) {
      const { op } = await operations.start(caller, 'app', repository.appId, {
        type: 'deploy',
        git_ref: commit,
      });
      return op;
    },

    /**
     * Puts a branch back where the push found it (deleting it when the push made it), so pushing the same
     * commit again retries its deploy. Only while the branch is where that push left it and the app is
     * not being deprovisioned; false when the branch was left as it is.
     */
    async rollBack(repository: GitRepository, command: PushCommand): Promise<boolean> {
      const done = await whileAppStays(repository, async () => {
        const update = isZeroId(command.oldId)
          ? ['update-ref', '-d', command.ref, command.newId]
          : ['update-ref', command.ref, command.oldId, command.newId];
        try {
          await run('git', ['--git-dir', repository.path, ...update]);
          return true;
        } catch {
          // Another push moved the branch since: it stays as that push left it.
          return false;
        }
      }).catch(() => false);
      return done === true;
    },

    /** The addresses the app answers on: its provisioned HTTP endpoints', as the console shows them. */
    async urls(appId: number): Promise<string[]> {
      const rows = await db
        .select({
          type: vhosts.type,
          userDomain: vhosts.userDomain,
          virtualDomain: vhosts.virtualDomain,
          externalHost: vhosts.externalHost,
          externalPorts: vhosts.externalPorts,
        })
        .from(vhosts)
        .innerJoin(services, eq(vhosts.serviceId, services.id))
        .where(and(eq(services.appId, appId), eq(vhosts.status, 'provisioned')))
        .orderBy(asc(vhosts.id));
      return rows.flatMap((row) => {
        const host = row.userDomain || row.virtualDomain || row.externalHost;
        if (!host || !(isHttpEndpointType(row.type) || row.type === 'grpc')) return [];
        // HTTPS where the endpoint has a TLS listener; the docker edge's ports where not 80 and 443.
        const ports = row.externalPorts;
        if (ports && ports.https === null && ports.http !== null)
          return [`http://${host}${ports.http === 80 ? '' : `:${ports.http}`}`];
        return [`https://${host}${!ports?.https || ports.https === 443 ? '' : `:${ports.https}`}`];
      });
    },
  };
}
export type GitRepositoriesService = ReturnType<typeof createGitRepositoriesService>;
