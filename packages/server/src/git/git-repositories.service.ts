import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { and, eq, inArray } from 'drizzle-orm';
import { assertAllowed, isVisible } from '../api/access/access.ts';
import type { CallerAccess } from '../auth/caller-access.ts';
import type { Db } from '../db/client.ts';
import { apps, environments, stacks } from '../db/schema.ts';
import { ApiError, notFound } from '../http/errors.ts';
import type { OperationsService } from '../operations/operations.service.ts';
import { appRepository } from '../runtimes/docker/git-source.ts';

// The apps' git remotes (`/git/<environment>/<app>.git`): which app a path names for a caller, its
// bare repository, and the deploy a push to its main branch starts.

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
      if (row.runtime !== 'docker')
        throw new ApiError(
          422,
          'unprocessable_entity',
          `${environmentHandle} runs on the ${row.runtime} runtime: git pushes deploy apps on docker stacks`,
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
      if (fs.existsSync(`${repository.path}/HEAD`)) return;
      // Private as the rest of the data directory; git (the server's umask) makes its files so too.
      fs.mkdirSync(repository.path, { recursive: true, mode: 0o700 });
      await run('git', ['init', '--bare', '--quiet', '--initial-branch=main', repository.path]);
    },

    /** The repository's branches and the commit each points at. */
    async branches(repository: GitRepository): Promise<Map<string, string>> {
      const heads = new Map<string, string>();
      if (!fs.existsSync(`${repository.path}/HEAD`)) return heads;
      const { stdout } = await run('git', [
        '--git-dir',
        repository.path,
        'for-each-ref',
        '--format=%(refname:strip=2) %(objectname)',
        'refs/heads',
      ]);
      for (const line of stdout.split('\n')) {
        const [name, sha] = line.split(' ');
        if (name && sha) heads.set(name, sha);
      }
      return heads;
    },

    /** Starts a deploy of the first deploy branch a push moved; null when it moved none. */
    async deployPushed(
      caller: CallerAccess,
      repository: GitRepository,
      before: Map<string, string>,
      after: Map<string, string>,
    ) {
      const moved = DEPLOY_BRANCHES.find(
        (branch) => after.has(branch) && after.get(branch) !== before.get(branch),
      );
      if (!moved) return null;
      const { op } = await operations.start(caller, 'app', repository.appId, {
        type: 'deploy',
        git_ref: moved,
      });
      return { op, branch: moved };
    },
  };
}
export type GitRepositoriesService = ReturnType<typeof createGitRepositoriesService>;
