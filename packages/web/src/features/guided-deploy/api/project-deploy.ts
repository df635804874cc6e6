import {
  type Actor,
  type AppResource,
  type ConfigurationResource,
  createDatabaseSchema,
  DATABASE_DEFAULTS,
  type DatabaseResource,
  databasePlaceholder,
  draftWaitsForDatabases,
  envChanges,
  isOperationFinished,
  MAX_PAGE_SIZE,
  type OperationResource,
  operationRequest,
  operationsPath,
  POLL_INTERVAL_MS,
  projectDeployDenial,
  projectDeployProblem,
  projectMessages,
  resolveDatabasePlaceholders,
} from '@berth/core';
import { allPages } from '../../../lib/all-pages.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { idOf, linkId } from '../../../lib/hal.ts';

// spec 3 §4 "Project deploy" and "Redeploy", run by the console against the contract's calls (§7): the
// databases are created and the variables set with placeholders first, so a reload while the databases
// provision leaves a configuration that says what it waits for, and the next Redeploy finishes it.

/** A database the deploy creates, bound to the variable that receives its connection URL. */
export interface ProjectDatabase {
  envVar: string;
  handle: string;
  /** The engine, copied from the image. */
  type: string;
  imageId: string;
}

export interface ProjectDeployDraft {
  appId: string;
  environmentId: string;
  databases: readonly ProjectDatabase[];
  /** The app's variables as they should be, besides the new databases' (a key left out is removed). */
  variables: readonly { key: string; value: string }[];
  /** The app's variables now. */
  currentEnv: Readonly<Record<string, string | null>>;
  /** The git ref to deploy (spec 3 §4: the deploy is triggered if a git ref exists). */
  gitRef: string | null;
}

export interface ProjectDeployResult {
  deployOperationId: string | null;
}

/** Asks for an operation unless the deploy was stopped; a request once sent is let finish, so what it made is known. */
async function startOperation(path: string, body: unknown, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  return idOf(await apiRequest<OperationResource>('api', path, { method: 'POST', body }));
}

/** The longest the console follows one operation, counting only the time the tab is visible. */
export const OPERATION_WAIT_LIMIT_MS = 30 * 60_000;
/** Transient failures (network, 5xx) borne in a row while following an operation, before giving up. */
export const TRANSIENT_RETRIES = 3;

/** A failure that asking again may mend: the network, or the server's own (5xx); never a refusal (4xx). */
function isTransient(error: unknown): boolean {
  return error instanceof ApiError ? error.status >= 500 : error instanceof TypeError;
}

/** A wait that `start` ends by calling `done`, or the signal by aborting (then `start`'s stop runs). */
function abortable(signal: AbortSignal | undefined, start: (done: () => void) => () => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const stop = start(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    function onAbort() {
      stop();
      reject(signal?.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return abortable(signal, (done) => {
    const timer = setTimeout(done, ms);
    return () => clearTimeout(timer);
  });
}

/** spec 3 §4: polling of operations pauses while the tab is hidden; resolves once it is visible. */
function untilVisible(signal?: AbortSignal): Promise<void> {
  if (document.visibilityState !== 'hidden') return Promise.resolve();
  return abortable(signal, (done) => {
    const onChange = () => {
      if (document.visibilityState === 'hidden') return;
      document.removeEventListener('visibilitychange', onChange);
      done();
    };
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  });
}

/**
 * Follows an operation as a page would (every 3 s while the tab is visible, spec 3 §4) until it ends;
 * its final status. A transient failure is asked again a few times; past the wait limit it gives up.
 */
export async function operationOutcome(id: string, signal?: AbortSignal): Promise<string> {
  let waited = 0;
  let failures = 0;
  for (;;) {
    await untilVisible(signal);
    try {
      const operation = await apiRequest<OperationResource>('api', `/operations/${encodeURIComponent(id)}`, {
        signal,
      });
      if (isOperationFinished(operation.status)) return operation.status;
      failures = 0;
    } catch (error) {
      failures += 1;
      if (signal?.aborted || !isTransient(error) || failures > TRANSIENT_RETRIES) throw error;
    }
    if (waited >= OPERATION_WAIT_LIMIT_MS) {
      throw new Error(
        `Operation ${id} has not finished after ${OPERATION_WAIT_LIMIT_MS / 60_000} minutes: follow it on its page`,
      );
    }
    await pause(POLL_INTERVAL_MS.operation, signal);
    waited += POLL_INTERVAL_MS.operation;
  }
}

/**
 * The outcomes of several operations followed at once (null: none was needed, nothing to wait for).
 * When one cannot be followed (or the signal aborts), the others stop being followed too, and its error
 * is the answer.
 */
async function outcomesOf(ids: readonly (string | null)[], signal?: AbortSignal): Promise<string[]> {
  const following = new AbortController();
  const stop = () => following.abort(signal?.reason);
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return await Promise.all(
      ids.map((id) => (id === null ? 'succeeded' : operationOutcome(id, following.signal))),
    );
  } finally {
    following.abort();
    signal?.removeEventListener('abort', stop);
  }
}

/** What the project deploy has just made: databases, or operations (so the pages following it read again). */
export type ProjectDeployStep = 'databases' | 'operations';

export interface ProjectDeployOptions {
  /** The caller: asked before anything is made (core's projectDeployDenial). */
  actor: Actor;
  /** Told after each step. */
  onStep?: (step: ProjectDeployStep) => void;
  /** Stops following the operations (the session ended); what was made stays, as after a reload. */
  signal?: AbortSignal;
}

/** spec 3 §4 Project deploy: databases, variables, provisioning, connection URLs, then the deploy. */
export async function deployProject(
  draft: ProjectDeployDraft,
  { actor, onStep = () => undefined, signal }: ProjectDeployOptions,
): Promise<ProjectDeployResult> {
  const problem = projectDeployProblem(draft);
  if (problem) throw new Error(problem);
  const waitsForDatabases = draftWaitsForDatabases(draft);
  const denial = projectDeployDenial(actor, draft.environmentId, waitsForDatabases);
  if (denial) throw new Error(denial);
  const environment = encodeURIComponent(draft.environmentId);
  const created: (ProjectDatabase & { id: string })[] = [];
  for (const database of draft.databases) {
    const body = createDatabaseSchema.parse({
      handle: database.handle,
      type: database.type,
      database_image_id: database.imageId,
      // spec 3 §9: new databases start with backups enabled.
      enable_backups: true,
    });
    signal?.throwIfAborted();
    const resource = await apiRequest<DatabaseResource>('api', `/accounts/${environment}/databases`, {
      method: 'POST',
      body: { ...body, account_id: draft.environmentId },
    });
    created.push({ ...database, id: idOf(resource) });
  }
  if (created.length > 0) onStep('databases');
  const entries = [
    ...draft.variables,
    ...created.map((database) => ({ key: database.envVar, value: databasePlaceholder(database.handle) })),
  ];
  const changes = envChanges(draft.currentEnv, entries);
  const configure =
    Object.keys(changes).length > 0
      ? await startOperation(
          operationsPath('app', draft.appId),
          operationRequest('app', 'configure', { env: changes }),
          signal,
        )
      : null;
  const provisions = await Promise.all(
    created.map((database) =>
      startOperation(
        operationsPath('database', database.id),
        operationRequest('database', 'provision', {
          container_size: DATABASE_DEFAULTS.containerSizeMb,
          disk_size: DATABASE_DEFAULTS.diskSizeGb,
          provisioned_iops: DATABASE_DEFAULTS.provisionedIops,
          instance_profile: DATABASE_DEFAULTS.instanceProfile,
        }),
        signal,
      ),
    ),
  );
  if (configure || provisions.length > 0) onStep('operations');
  // The placeholders must be in the configuration before they are replaced.
  const [configured, ...outcomes] = await outcomesOf([configure, ...provisions], signal);
  if (configured !== 'succeeded') throw new Error(`Configuration of the app failed (operation ${configure})`);
  const failed = created
    .filter((_, index) => outcomes[index] !== 'succeeded')
    .map((database) => database.handle);
  if (failed.length > 0) throw new Error(`Provisioning failed for ${failed.join(', ')}`);
  // Placeholders an interrupted deploy left in the configuration are filled in too.
  if (waitsForDatabases) await refreshDatabaseUrls(draft.appId, draft.environmentId, signal);
  if (!draft.gitRef) return { deployOperationId: null };
  const deploy = await startOperation(
    operationsPath('app', draft.appId),
    operationRequest('app', 'deploy', { git_ref: draft.gitRef }),
    signal,
  );
  return { deployOperationId: deploy };
}

/**
 * spec 3 §4: the app's variables that still hold a database placeholder get that database's connection
 * URL (one configure, followed to its end: a deploy after a failed one would run with the placeholders).
 * The messages are the spec's (§8 database URL update).
 */
export async function refreshDatabaseUrls(
  appId: string,
  environmentId: string,
  signal?: AbortSignal,
): Promise<void> {
  let databases: DatabaseResource[];
  try {
    databases = await allPages<DatabaseResource>(
      'api',
      `/accounts/${encodeURIComponent(environmentId)}/databases?per_page=${MAX_PAGE_SIZE}`,
      'databases',
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(projectMessages.fetchDatabases);
  }
  let env: Record<string, string | null>;
  try {
    const app = await apiRequest<AppResource>('api', `/apps/${encodeURIComponent(appId)}`, { signal });
    const configurationId = linkId(app, 'current_configuration');
    env = configurationId
      ? ((
          await apiRequest<ConfigurationResource>(
            'api',
            `/configurations/${encodeURIComponent(configurationId)}`,
            { signal },
          )
        ).env ?? {})
      : {};
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new Error(projectMessages.fetchEnv);
  }
  const { changes, missing } = resolveDatabasePlaceholders(
    env,
    new Map(databases.map((database) => [database.handle, database.connection_url])),
  );
  if (missing.length > 0) {
    throw new Error(
      `No connection URL for ${missing.join(', ')}: the database is not provisioned yet, or reading its credentials needs the sensitive permission`,
    );
  }
  if (Object.keys(changes).length === 0) return;
  const configure = await startOperation(
    operationsPath('app', appId),
    operationRequest('app', 'configure', { env: changes }),
    signal,
  );
  if ((await operationOutcome(configure, signal)) !== 'succeeded') {
    throw new Error(
      `Putting the databases' connection URLs in the configuration failed (operation ${configure})`,
    );
  }
}

/** What a Redeploy deploys again: the git ref of the last deploy, or the image it deployed. */
export type RedeploySource = { gitRef: string } | { dockerImage: string };

/**
 * spec 3 §4 Redeploy: refresh the database URLs, then deploy the same source again. `waitsForDatabases`:
 * the configuration may hold placeholders (the caller then needs what a project deploy with databases
 * needs); when it cannot, there is nothing to refresh.
 */
export async function redeployApp(input: {
  appId: string;
  environmentId: string;
  source: RedeploySource;
  waitsForDatabases: boolean;
  actor: Actor;
  signal?: AbortSignal;
}): Promise<ProjectDeployResult> {
  const problem = projectDeployProblem(input);
  if (problem) throw new Error(problem);
  const denial = projectDeployDenial(input.actor, input.environmentId, input.waitsForDatabases);
  if (denial) throw new Error(denial);
  if (input.waitsForDatabases) await refreshDatabaseUrls(input.appId, input.environmentId, input.signal);
  const deploy = await startOperation(
    operationsPath('app', input.appId),
    operationRequest(
      'app',
      'deploy',
      'dockerImage' in input.source
        ? { docker_image: input.source.dockerImage }
        : { git_ref: input.source.gitRef },
    ),
    input.signal,
  );
  return { deployOperationId: deploy };
}
