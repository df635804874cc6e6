/**
 * A runtime is what a stack runs on: `sim` (the embedded simulator) or later `kubernetes`.
 * The operations engine calls it while an operation runs; it does the work and writes log lines,
 * and returns what it made. The engine, not the runtime, records the results in the database, in
 * the same transaction that ends the operation, so a runtime holds no Berth state of its own.
 *
 * Later resources (databases, endpoints, drains, backups) add methods of the same shape:
 * provisionDatabase, provisionEndpoint, provisionDrain, backup/restore, each taking a context and a
 * plain description and returning what the engine must record.
 */

export interface RuntimeContext {
  /** Appends one line to the operation's log. */
  log(line: string, level?: 'INFO' | 'WARN' | 'ERROR'): Promise<void>;
  /** Aborted when the worker loses its lease or stops: stop work and throw. */
  signal: AbortSignal;
}

export interface ServicePlan {
  handle: string;
  processType: string;
  command: string | null;
  containerCount: number;
  memoryLimitMb: number;
  instanceClass: string;
}

export interface ContainerSpec {
  dockerName: string;
  host: string;
  awsInstanceId: string;
  instanceClass: string;
  memoryLimit: number;
  port: number;
  layer: 'app' | 'database';
  status: string;
}

export interface BuiltImage {
  dockerRepo: string;
  dockerRef: string;
  gitRepo: string | null;
  gitRef: string | null;
  exposedPorts: number[];
  commit: { sha: string; message: string; timestamp: Date } | null;
  /** Process types the image declares (a Procfile, or the image's CMD). */
  processes: { processType: string; command: string | null }[];
}

export interface AppTarget {
  appHandle: string;
  environmentHandle: string;
  stackName: string;
}

export interface CodeScan {
  dockerfile: string | null;
  procfile: string | null;
  berthYml: string | null;
  languages: string[];
}

export interface Runtime {
  readonly name: string;
  /** Fetches and builds the code at a git ref, or pulls a Docker image. */
  buildImage(
    ctx: RuntimeContext,
    target: AppTarget,
    source: { gitRef?: string; gitRepo: string; dockerImage?: string },
  ): Promise<BuiltImage>;
  /** Starts the containers of one service from an image and stops its previous ones. */
  rollOut(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    image: { dockerRepo: string; dockerRef: string },
    env: Record<string, string>,
  ): Promise<ContainerSpec[]>;
  /** Restarts a service's containers in place (or on new hosts when `recreate`). */
  restart(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    recreate: boolean,
  ): Promise<ContainerSpec[]>;
  /** Stops and removes everything of an app. */
  removeApp(ctx: RuntimeContext, target: AppTarget): Promise<void>;
  /** Reads the repository at a git ref without deploying it. */
  scanCode(ctx: RuntimeContext, target: AppTarget, gitRef: string): Promise<CodeScan>;
}

export class RuntimeError extends Error {
  override name = 'RuntimeError';
}
