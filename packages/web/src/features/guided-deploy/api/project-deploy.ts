import {
  type AppResource,
  type ConfigurationResource,
  createDatabaseSchema,
  DATABASE_DEFAULTS,
  type DatabaseResource,
  databasePlaceholder,
  envChanges,
  isOperationFinished,
  MAX_PAGE_SIZE,
  type OperationResource,
  operationRequest,
  operationsPath,
  POLL_INTERVAL_MS,
  placeholderHandle,
  projectDeployProblem,
  projectMessages,
  resolveDatabasePlaceholders,
} from '@berth/core';
import { allPages } from '../../../lib/all-pages.ts';
import { apiRequest } from '../../../lib/api-client.ts';
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

async function startOperation(path: string, body: unknown): Promise<string> {
  return idOf(await apiRequest<OperationResource>('api', path, { method: 'POST', body }));
}

/** Follows an operation as a page would (every 3 s, spec 3 §4) until it ends; its final status. */
async function operationOutcome(id: string): Promise<string> {
  for (;;) {
    const operation = await apiRequest<OperationResource>('api', `/operations/${encodeURIComponent(id)}`);
    if (isOperationFinished(operation.status)) return operation.status;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS.operation));
  }
}

/** What the project deploy has just made: databases, or operations (so the pages following it read again). */
export type ProjectDeployStep = 'databases' | 'operations';

/** spec 3 §4 Project deploy: databases, variables, provisioning, connection URLs, then the deploy. */
export async function deployProject(
  draft: ProjectDeployDraft,
  onStep: (step: ProjectDeployStep) => void = () => undefined,
): Promise<ProjectDeployResult> {
  const problem = projectDeployProblem(draft);
  if (problem) throw new Error(problem);
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
      ),
    ),
  );
  if (configure || provisions.length > 0) onStep('operations');
  // The placeholders must be in the configuration before they are replaced.
  const [configured, ...outcomes] = await Promise.all([
    configure ? operationOutcome(configure) : 'succeeded',
    ...provisions.map(operationOutcome),
  ]);
  if (configured !== 'succeeded') throw new Error(`Configuration of the app failed (operation ${configure})`);
  const failed = created
    .filter((_, index) => outcomes[index] !== 'succeeded')
    .map((database) => database.handle);
  if (failed.length > 0) throw new Error(`Provisioning failed for ${failed.join(', ')}`);
  // Placeholders an interrupted deploy left in the configuration are filled in too.
  if (created.length > 0 || entries.some((entry) => placeholderHandle(entry.value) !== null)) {
    await refreshDatabaseUrls(draft.appId, draft.environmentId);
  }
  if (!draft.gitRef) return { deployOperationId: null };
  const deploy = await startOperation(
    operationsPath('app', draft.appId),
    operationRequest('app', 'deploy', { git_ref: draft.gitRef }),
  );
  return { deployOperationId: deploy };
}

/**
 * spec 3 §4: the app's variables that still hold a database placeholder get that database's connection
 * URL (one configure). The messages are the spec's (§8 database URL update).
 */
export async function refreshDatabaseUrls(appId: string, environmentId: string): Promise<void> {
  let databases: DatabaseResource[];
  try {
    databases = await allPages<DatabaseResource>(
      'api',
      `/accounts/${encodeURIComponent(environmentId)}/databases?per_page=${MAX_PAGE_SIZE}`,
      'databases',
    );
  } catch {
    throw new Error(projectMessages.fetchDatabases);
  }
  let env: Record<string, string | null>;
  try {
    const app = await apiRequest<AppResource>('api', `/apps/${encodeURIComponent(appId)}`);
    const configurationId = linkId(app, 'current_configuration');
    env = configurationId
      ? ((
          await apiRequest<ConfigurationResource>(
            'api',
            `/configurations/${encodeURIComponent(configurationId)}`,
          )
        ).env ?? {})
      : {};
  } catch {
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
  if (Object.keys(changes).length > 0) {
    await startOperation(
      operationsPath('app', appId),
      operationRequest('app', 'configure', { env: changes }),
    );
  }
}

/** spec 3 §4 Redeploy: refresh the database URLs, then deploy the ref again. */
export async function redeployApp(input: {
  appId: string;
  environmentId: string;
  gitRef: string;
}): Promise<ProjectDeployResult> {
  const problem = projectDeployProblem(input);
  if (problem) throw new Error(problem);
  await refreshDatabaseUrls(input.appId, input.environmentId);
  const deploy = await startOperation(
    operationsPath('app', input.appId),
    operationRequest('app', 'deploy', { git_ref: input.gitRef }),
  );
  return { deployOperationId: deploy };
}
