import { HANDLE_MAX_LENGTH } from '../environments/environment.schema.ts';
import { type ActionName, actionDenial } from '../permissions/actions.ts';
import type { Actor } from '../permissions/permissions.ts';

// spec 3 "Guided app deployment", §3 project draft, §4 project creation, project deploy and redeploy,
// §8 project messages: the rules of the guided deploy, written once for the console's pages and tests.

/** spec 3: "Steps: name app 1, SSH/git 2, configure 3, deploy 4." */
export const GUIDED_DEPLOY_STEPS = ['Name App', 'SSH/Git', 'Configure', 'Deploy'] as const;
export type GuidedDeployStep = 1 | 2 | 3 | 4;

/** spec 3: the Deploying page's heading is one of these. */
export const GUIDED_DEPLOY_HEADINGS = {
  deploying: 'Deploying',
  succeeded: 'Deployed your Code',
  failed: 'Deployment Failed',
} as const;
export type GuidedDeployState = keyof typeof GUIDED_DEPLOY_HEADINGS;

/** spec 3 §4 and §8: project creation, project deploy, database URL update and redeploy. */
export const projectMessages = {
  stackEmpty: 'stack cannot be empty',
  nameEmpty: 'name cannot be empty',
  noApp: (appId: string) => `no app found with id ${appId}, cannot deploy project`,
  noEnvironment: 'envId cannot be empty, cannot deploy project',
  fetchDatabases: 'failed to fetch databases',
  fetchEnv: 'failed to fetch app env vars',
  redeployInitiated: 'Redeploy initiated',
} as const;

/**
 * The branch a git-push deploy's code is pushed to first, to be scanned before it is configured and
 * deployed: a push to main (or master) deploys at once (Berth's git server), any other branch is only
 * stored, so the scan reads it without deploying.
 */
export const SCAN_BRANCH = 'berth-scan';

/** spec 3 §4 "Project creation": error if the stack or the name is empty, in that order. */
export function projectCreationProblem(draft: { stackId: string; name: string }): string | null {
  if (draft.stackId.trim() === '') return projectMessages.stackEmpty;
  if (draft.name.trim() === '') return projectMessages.nameEmpty;
  return null;
}

/** spec 3 §4 "Project deploy": what must be known before anything is sent. */
export function projectDeployProblem(draft: { appId: string; environmentId: string }): string | null {
  if (draft.appId.trim() === '') return projectMessages.noApp(draft.appId);
  if (draft.environmentId.trim() === '') return projectMessages.noEnvironment;
  return null;
}

// spec 3 §4: the variables a new database fills are set first with a placeholder naming the database by
// its handle, and replaced with its connection URL once it is provisioned. A placeholder left in the
// configuration (a reload during provisioning) is replaced by the next Redeploy.
const PLACEHOLDER_PREFIX = '{{berth_database:';
const PLACEHOLDER_SUFFIX = '}}';

export function databasePlaceholder(databaseHandle: string): string {
  return `${PLACEHOLDER_PREFIX}${databaseHandle}${PLACEHOLDER_SUFFIX}`;
}

/** The database handle a placeholder names, or null for any other value. */
export function placeholderHandle(value: string | null | undefined): string | null {
  if (!value?.startsWith(PLACEHOLDER_PREFIX) || !value.endsWith(PLACEHOLDER_SUFFIX)) return null;
  const handle = value.slice(PLACEHOLDER_PREFIX.length, -PLACEHOLDER_SUFFIX.length);
  return handle.length > 0 && handle.length <= HANDLE_MAX_LENGTH && /^[a-z0-9._-]+$/.test(handle)
    ? handle
    : null;
}

/**
 * Whether a project deploy's draft makes databases or fills placeholders in: it then reads the databases'
 * connection URLs once they are provisioned.
 */
export function draftWaitsForDatabases(draft: {
  databases: readonly unknown[];
  variables: readonly { value: string | null }[];
}): boolean {
  return (
    draft.databases.length > 0 || draft.variables.some((entry) => placeholderHandle(entry.value) !== null)
  );
}

/**
 * Why the actor may not run a project deploy (or a Redeploy) in the environment, or null. One that waits
 * for databases creates them (`database.create`) and reads their connection URLs, which only Sensitive
 * Access sees (`database.credentials.read`): asked before anything is made, so a deploy cannot stop
 * midway and leave databases behind. The first denial is the tooltip's text.
 */
export function projectDeployDenial(
  actor: Actor,
  environmentId: string,
  waitsForDatabases: boolean,
): string | null {
  const actions: ActionName[] = waitsForDatabases
    ? ['app.deploy', 'database.create', 'database.credentials.read']
    : ['app.deploy'];
  for (const action of actions) {
    const denial = actionDenial(actor, action, { environmentId });
    if (denial !== null) return denial;
  }
  return null;
}

/** The handles of the databases a configuration still waits for. */
export function pendingDatabaseHandles(env: Readonly<Record<string, string | null>>): string[] {
  return [...new Set(Object.values(env).flatMap((value) => placeholderHandle(value) ?? []))].sort((a, b) =>
    a.localeCompare(b),
  );
}

/**
 * The configure changes that put each database's connection URL where its placeholder is. A database
 * with no URL (not provisioned, or hidden from a caller without the sensitive scope) is `missing`.
 */
export function resolveDatabasePlaceholders(
  env: Readonly<Record<string, string | null>>,
  connectionUrls: ReadonlyMap<string, string>,
): { changes: Record<string, string>; missing: string[] } {
  const changes: Record<string, string> = {};
  const missing = new Set<string>();
  for (const [key, value] of Object.entries(env)) {
    const handle = placeholderHandle(value);
    if (handle === null) continue;
    const url = connectionUrls.get(handle);
    if (url) changes[key] = url;
    else missing.add(handle);
  }
  return { changes, missing: [...missing].sort((a, b) => a.localeCompare(b)) };
}

/**
 * A handle for a database the guided deploy creates: the app's handle and the engine, numbered when an
 * environment already has one by that name, within the handle's length.
 */
export function projectDatabaseHandle(appHandle: string, type: string, taken: ReadonlySet<string>): string {
  for (let number = 1; ; number += 1) {
    const handle = numberedHandle(appHandle, type, number);
    if (!taken.has(handle)) return handle;
  }
}

/** Whether a database's handle is one projectDatabaseHandle gives an app's database of that engine. */
export function isProjectDatabase(appHandle: string, database: { handle: string; type: string }): boolean {
  if (database.handle === numberedHandle(appHandle, database.type, 1)) return true;
  const number = Number(/-(\d{1,4})$/.exec(database.handle)?.[1] ?? 0);
  return number >= 2 && numberedHandle(appHandle, database.type, number) === database.handle;
}

function numberedHandle(appHandle: string, type: string, number: number): string {
  const suffix = number === 1 ? `-${type}` : `-${type}-${number}`;
  return `${appHandle.slice(0, HANDLE_MAX_LENGTH - suffix.length)}${suffix}`;
}

/** The operations of one guided deploy, as the Deploying page reads them. */
export interface GuidedDeployOperations {
  /** The latest deploy of the app, or null before one is asked for. */
  deploy: { status: string } | null;
  /** The configure and database provisions the deploy waited for, newest of each. */
  steps: readonly { status: string }[];
  /** The console is still creating, provisioning or configuring before the deploy is asked for. */
  preparing: boolean;
  /** The preparation stopped with an error. */
  preparationFailed: boolean;
}

/**
 * spec 3: the Deploying page's state. Failed as soon as the preparation, the deploy (or, before any
 * deploy, a step) failed; deploying while the console still prepares (an earlier deploy's outcome is
 * not this one's) or the deploy is queued or running; deployed once the deploy succeeded.
 */
export function guidedDeployState(operations: GuidedDeployOperations): GuidedDeployState {
  if (operations.preparationFailed) return 'failed';
  if (operations.preparing) return 'deploying';
  if (operations.deploy?.status === 'failed') return 'failed';
  if (operations.deploy?.status === 'succeeded') return 'succeeded';
  if (!operations.deploy && operations.steps.some((step) => step.status === 'failed')) return 'failed';
  return 'deploying';
}
