import type { ContainerMetric } from '@berth/core';

/**
 * A runtime is what a stack runs on: `sim` (the embedded simulator) or `docker` (real containers).
 * The operations engine calls it while an operation runs; it does the work and writes log lines,
 * and returns what it made. The engine, not the runtime, records the results in the database, in
 * the same transaction that ends the operation, so a runtime holds no Berth state of its own.
 *
 * Databases follow the same shape: each method takes a context and a plain description and returns what
 * the engine must record. They are written so a runtime that runs real containers can do them with the
 * engine's own tools (a volume per disk, `pg_dump` or a volume snapshot for a backup).
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
  /** Health checks only that the port accepts connections, not that HTTP answers (spec: naive health check). */
  naiveHealthCheck?: boolean;
  /**
   * The docker names of the containers Berth records for the service (its current release's; none for
   * a new service). A runtime whose engine keys once named services by handles, which repeat across
   * organizations, finds the containers made then by these, never by the old key.
   */
  recordedContainers: string[];
  /** The ids of the service's endpoints: a runtime takes over their routes made under an older key. */
  endpointIds: number[];
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
  /** The app's id: its code's repository is named after it (handles can repeat across organizations). */
  appId: number;
  appHandle: string;
  /** The environment's id: a runtime's own objects for it (a network) are named after it, as handles repeat. */
  environmentId: number;
  environmentHandle: string;
  stackName: string;
  /**
   * The ids of the environment's databases, which its apps reach by name: a runtime that gives each
   * environment a network of its own puts them on it (one made before may not be yet).
   */
  environmentDatabaseIds: number[];
}

export interface CodeScan {
  dockerfile: string | null;
  procfile: string | null;
  berthYml: string | null;
  languages: string[];
}

/** Where an endpoint lives: its stack's domains and the resource it routes to. */
export interface EndpointTarget {
  /** The vhost id. */
  id: number;
  stackName: string;
  region: string;
  defaultDomain: string;
  internalDomain: string;
  environmentHandle: string;
  /** The app (or database) handle and the service's process type behind the endpoint. */
  resourceHandle: string;
  serviceHandle: string;
  /** The app behind it (handles repeat across organizations, ids do not), or null for a database's. */
  appId: number | null;
  databaseId: number | null;
  /** The docker names of the containers Berth records for the service (see ServicePlan). */
  recordedContainers: string[];
}

/** An endpoint of an app's service as Berth records it, for a runtime that repairs its routes. */
export interface RecordedEndpoint {
  /** The vhost id. */
  id: number;
  appId: number;
  serviceHandle: string;
  /** The docker names of the containers Berth records for the service (see ServicePlan). */
  recordedContainers: string[];
}

/** What Berth records of an app on its runtime, for its removal (see ServicePlan). */
export interface RecordedApp {
  /** The docker names of its services' containers. */
  containers: string[];
  /** The image ids its deploys made or used that no other app records. */
  images: string[];
}

/** An endpoint's settings as stored (spec 2 §3). */
export interface EndpointPlan {
  type: string;
  platform: string;
  acme: boolean;
  default: boolean;
  /** A default endpoint's name, the label it adds to the stack's default domain (`shop-production`). */
  defaultName: string | null;
  internal: boolean;
  shared: boolean;
  userDomain: string;
  /** The custom certificate's common name (custom HTTPS, or the transitional one of a managed endpoint). */
  certificateCommonName: string | null;
  containerPort: number | null;
  containerPorts: number[];
  ipWhitelist: string[];
  loadBalancingAlgorithm: string;
  /** The host names it already has, kept when an endpoint is provisioned again after a change. */
  externalHost: string | null;
  internalHost: string | null;
  dockerName: string | null;
  acmeStatus: string;
  /** The shared secret requests must carry (header authentication), or null. */
  tokenHeader: string | null;
  /** The custom certificate to serve (custom HTTPS): its PEM chain and private key. */
  certificate: { certificatePem: string; keyPem: string } | null;
}

/** What provisioning an endpoint made: its load balancer, hostnames and (managed HTTPS) ACME state. */
export interface ProvisionedEndpoint {
  externalHost: string;
  internalHost: string;
  dockerName: string;
  /** The hostname users reach: the default domain name, the user's domain, or the certificate's name. */
  virtualDomain: string;
  /** The ports the endpoint answers on where they are not 80 and 443 (null: no such listener). */
  ports?: { http: number | null; https: number | null };
  acme: {
    status: 'pending' | 'transitioning' | 'ready';
    dnsChallengeHost: string;
    /** The DNS records the user must create (contract §4.3 acme_configuration). */
    configuration: {
      names: string[];
      challenges: { method: string; from: { name: string }; to: { name: string; legacy: boolean }[] }[];
    };
  } | null;
}

/** Where a database lives and what it runs. */
export interface DatabaseTarget {
  id: number;
  handle: string;
  /** The engine (`postgresql`, `redis`, …) and the image's version and repository. */
  type: string;
  version: string;
  dockerRepo: string;
  /** The environment's id (see AppTarget). */
  environmentId: number;
  environmentHandle: string;
  stackName: string;
  region: string;
  internalDomain: string;
}

/** An environment as the runtime sees it once it is deleted. */
export interface EnvironmentTarget {
  id: number;
  handle: string;
  stackName: string;
}

/** A database's size: its container and its disk. */
export interface DatabasePlan {
  containerSizeMb: number;
  instanceClass: string;
  diskSizeGb: number;
  provisionedIops: number;
}

/** The engine's own account the server generated; the runtime creates it, nothing more. */
export interface DatabaseAccount {
  username: string;
  password: string;
  /** The database (or index, vhost) name inside the engine. */
  name: string;
}

/** What a new database starts from: nothing, a backup, its source at a point in time, or a live primary. */
export type DatabaseSeed =
  | { kind: 'empty' }
  | { kind: 'backup'; storageRef: string }
  | { kind: 'point_in_time'; source: DatabaseTarget; at: Date | null }
  | { kind: 'replica'; primary: DatabaseTarget; primaryHost: string };

/** What provisioning a database made. */
export interface ProvisionedDatabase {
  containers: ContainerSpec[];
  /** Where the engine listens inside the stack (credential URLs name it). */
  host: string;
  port: number;
  disk: {
    device: string;
    host: string;
    availabilityZone: string;
    volumeId: string;
    instanceId: string;
    /** Bytes of the disk's encryption key (AES-256: 32). */
    keyBytes: number;
  };
}

/** A backup the runtime took: where its data is kept and how large it is. */
export interface DatabaseBackup {
  storageRef: string;
  sizeGb: number;
}

/**
 * An app's private registry account: its configuration's BERTH_PRIVATE_REGISTRY_USERNAME and
 * BERTH_PRIVATE_REGISTRY_PASSWORD, used to pull its Docker image (and never given to its containers).
 */
export interface RegistryAuth {
  username: string;
  password: string;
}

export const REGISTRY_USERNAME_VARIABLE = 'BERTH_PRIVATE_REGISTRY_USERNAME';
export const REGISTRY_PASSWORD_VARIABLE = 'BERTH_PRIVATE_REGISTRY_PASSWORD';

/** The registry account an app's configuration names, when it names both halves. */
export function registryAuthOf(env: Record<string, string>): RegistryAuth | undefined {
  const username = env[REGISTRY_USERNAME_VARIABLE];
  const password = env[REGISTRY_PASSWORD_VARIABLE];
  return username && password ? { username, password } : undefined;
}

/** The configuration a container gets: the app's, without what only the platform uses. */
export function containerEnv(env: Record<string, string>): Record<string, string> {
  const { [REGISTRY_USERNAME_VARIABLE]: _user, [REGISTRY_PASSWORD_VARIABLE]: _password, ...rest } = env;
  return rest;
}

export interface Runtime {
  readonly name: string;
  /**
   * Fetches and builds the code at a git ref, or pulls a Docker image. `gitRepo` is the name the
   * repository is recorded by on a runtime with no git remote of its own (the simulator's).
   */
  buildImage(
    ctx: RuntimeContext,
    target: AppTarget,
    source: { gitRef?: string; gitRepo: string; dockerImage?: string; registryAuth?: RegistryAuth },
  ): Promise<BuiltImage>;
  /** Starts the containers of one service from an image and stops its previous ones. */
  rollOut(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    image: { dockerRepo: string; dockerRef: string },
    env: Record<string, string>,
  ): Promise<ContainerSpec[]>;
  /**
   * Restarts a service's containers in place (or on new hosts when `recreate`). The release's image and
   * the app's configuration let a runtime start again containers that are gone.
   */
  restart(
    ctx: RuntimeContext,
    target: AppTarget,
    service: ServicePlan,
    recreate: boolean,
    release: { image: { dockerRepo: string; dockerRef: string }; env: Record<string, string> },
  ): Promise<ContainerSpec[]>;
  /** Stops and removes everything of an app: what it made for it, and what Berth records of it. */
  removeApp(ctx: RuntimeContext, target: AppTarget, recorded: RecordedApp): Promise<void>;
  /** Reads the repository at a git ref without deploying it. */
  scanCode(ctx: RuntimeContext, target: AppTarget, gitRef: string): Promise<CodeScan>;
  /**
   * Creates (or, for an endpoint already provisioned, updates) an endpoint's load balancer, routing,
   * allowlist and TLS. A managed HTTPS endpoint comes back with its ACME state: `pending` until its
   * certificate is issued (`transitioning` while a transitional certificate serves it).
   */
  provisionEndpoint(
    ctx: RuntimeContext,
    target: EndpointTarget,
    plan: EndpointPlan,
  ): Promise<ProvisionedEndpoint>;
  /** Asks the certificate authority for a managed endpoint's certificate; resolves once it is issued. */
  renewEndpointCertificate(ctx: RuntimeContext, target: EndpointTarget, plan: EndpointPlan): Promise<void>;
  /** Removes an endpoint's load balancer and DNS names. */
  deprovisionEndpoint(ctx: RuntimeContext, target: EndpointTarget, plan: EndpointPlan): Promise<void>;
  /** Creates a database's disk and container and starts the engine with its account, from the seed. */
  provisionDatabase(
    ctx: RuntimeContext,
    target: DatabaseTarget,
    plan: DatabasePlan,
    account: DatabaseAccount,
    seed: DatabaseSeed,
  ): Promise<ProvisionedDatabase>;
  /**
   * Restarts a database's container with the plan's size, growing its disk first when the plan is larger;
   * `recreate` moves it to new hardware (the disk is backed up and restored on the new host).
   */
  restartDatabase(
    ctx: RuntimeContext,
    target: DatabaseTarget,
    plan: DatabasePlan,
    options: { recreate: boolean; diskGrowsTo: number | null },
  ): Promise<ContainerSpec[]>;
  /** Asks the engine to reload its configuration without a restart. */
  reloadDatabase(ctx: RuntimeContext, target: DatabaseTarget): Promise<void>;
  /** Takes a consistent backup of a database's data. */
  backupDatabase(ctx: RuntimeContext, target: DatabaseTarget): Promise<DatabaseBackup>;
  /** Deletes a backup's data. */
  deleteBackup(ctx: RuntimeContext, storageRef: string): Promise<void>;
  /** Stops a database and deletes its container and disk. */
  deprovisionDatabase(ctx: RuntimeContext, target: DatabaseTarget): Promise<void>;
  /**
   * One metric of one container at the given ticks, for the console's charts (contract §4.4): one
   * series per label (memory has `usage` and `limit`), one value per tick, null where the container
   * did not run (before it started, after it stopped). A metric the container does not have (disk
   * metrics of an app container) answers no series. Reads only: no context, no log lines.
   */
  containerMetrics(
    container: MetricsContainer,
    metric: ContainerMetric,
    ticks: readonly Date[],
  ): Promise<MetricSeries[]>;
  /**
   * The last lines these running containers wrote, oldest first, at most `tail` in all (the newest);
   * with `since`, only lines written after it (what a log drain has not shipped yet). Reads only: no
   * context, no log lines of an operation.
   */
  containerLogs(
    containers: readonly LogsContainer[],
    tail: number,
    since?: Date,
  ): Promise<ContainerLogLine[]>;
  /**
   * What these endpoints' proxies answered (access lines), oldest first, at most `tail` in all (the
   * newest); with `since`, only lines written after it. Reads only, like `containerLogs`.
   */
  endpointLogs(endpoints: readonly LogsEndpoint[], tail: number, since?: Date): Promise<EndpointLogLine[]>;
  /**
   * The containers running on this runtime's machines (name → when it was made), for the reconciler to
   * compare with what the database records. A runtime that cannot lose containers (the simulator) has none.
   * A runtime that moves containers itself (swarm) counts those it is bringing up again as running.
   */
  runningContainers?(): Promise<Map<string, Date>>;
  /** Stops and removes containers by name (orphans: running, and recorded nowhere). */
  removeContainers?(names: readonly string[]): Promise<void>;
  /**
   * Sends endpoints whose containers are gone (restarted at another address) to the service's running
   * ones; what it changed. For the reconciler, on runtimes whose routing can go stale, with the app
   * endpoints Berth records on the runtime's stacks.
   */
  repairRouting?(endpoints: readonly RecordedEndpoint[]): Promise<string[]>;
  /**
   * Removes what the runtime made for an environment (the docker runtime: its network) once the
   * environment is deleted, and so has nothing left. Not an operation: the delete calls it, and a
   * RuntimeError saying what is left (something still uses it) goes to the server's log, never failing
   * the delete. A runtime that makes nothing per environment (the simulator) has none.
   */
  removeEnvironment?(target: EnvironmentTarget): Promise<void>;
  /**
   * The machines of the stack (a Swarm cluster's nodes, the docker runtime's one engine, the simulator's
   * three) with the containers each runs, for the stack page. Reads only. The engines say what runs
   * where; the simulator, which keeps no state, places the containers Berth records by their host.
   */
  listNodes?(stack: NodesTarget): Promise<RuntimeNode[]>;
  /**
   * Why a database cannot run now (a sentence for its page: the node holding its data is down), or null
   * when nothing stands in its way. Reads only; a runtime whose databases cannot be cut off omits it.
   */
  databaseProblem?(target: DatabaseTarget): Promise<string | null>;
  /**
   * Sets whether a node of the stack takes tasks: `drain` moves its containers to the other nodes first
   * (maintenance), `pause` keeps what runs but places nothing new, `active` takes tasks again. Absent
   * where the stack is one engine (docker): there is nowhere to move to.
   */
  setNodeAvailability?(
    stack: NodesTarget,
    nodeId: string,
    availability: RuntimeNode['availability'],
  ): Promise<void>;
}

/** The stack whose machines are asked for. */
export interface NodesTarget {
  stackName: string;
  /** The running containers Berth records on the stack; read only by a runtime that needs them. */
  recorded(): Promise<readonly { dockerName: string; host: string }[]>;
}

/** One machine of a stack as its engine reports it. */
export interface RuntimeNode {
  /** The engine's id of the node (Swarm's node id, the Docker engine's id). */
  id: string;
  hostname: string;
  /** The address the node is reached at by the others (and by the edge). */
  address: string;
  role: 'manager' | 'worker';
  /** Swarm's leader among the managers. */
  leader: boolean;
  /** Swarm's node states; a single engine that answers is `ready`. */
  state: 'ready' | 'down' | 'disconnected' | 'unknown';
  /** Whether new tasks land there (`active`), none do (`pause`), or its tasks move away (`drain`). */
  availability: 'active' | 'pause' | 'drain';
  memoryBytes: number;
  cpus: number;
  /** The Docker Engine version on the node, where the engine says. */
  engineVersion: string | null;
  /** This Berth's containers on the node (running or starting). */
  containers: RuntimeNodeContainer[];
}

/** A container on a node: its name on the engine, and the other names Berth may record it by. */
export interface RuntimeNodeContainer {
  name: string;
  state: string;
  /** A Swarm task's slot (`<service>.<slot>`), which the swarm runtime records an app's container by. */
  recordedAs?: string[];
}

/** A running container whose output is asked for. */
export interface LogsContainer {
  id: number;
  dockerName: string;
  layer: string;
  /** The service's process type (`web`, `worker`, `cmd`, a database's engine): what it prints. */
  processType: string;
  startedAt: Date;
}

/** An endpoint whose access lines are asked for. */
export interface LogsEndpoint {
  id: number;
  /** The name it answers to (its external host): how the edge's lines name it. */
  hostname: string;
  createdAt: Date;
}

/** One request an endpoint's proxy answered. */
export interface EndpointLogLine {
  time: Date;
  hostname: string;
  line: string;
}

/** One line a container wrote. */
export interface ContainerLogLine {
  time: Date;
  container: string;
  stream: 'stdout' | 'stderr';
  line: string;
}

/** The newest `tail` lines of several containers' lines, oldest first. */
export function newestLines(lines: ContainerLogLine[], tail: number): ContainerLogLine[] {
  return lines.sort((a, b) => a.time.getTime() - b.time.getTime()).slice(-tail);
}

/** A container as the metrics see it (contract §4.3 container). */
export interface MetricsContainer {
  id: number;
  dockerName: string;
  layer: string;
  instanceClass: string;
  memoryLimitMb: number;
  startedAt: Date;
  /** When it stopped (deleted), or null while it runs. */
  stoppedAt: Date | null;
}

/** A container row (db `containers`) as the metrics see it: stopped when it was deleted. */
export function metricsContainerOf(row: {
  id: number;
  dockerName: string;
  layer: string;
  instanceClass: string;
  memoryLimit: number;
  createdAt: Date;
  deletedAt: Date | null;
}): MetricsContainer {
  return {
    id: row.id,
    dockerName: row.dockerName,
    layer: row.layer,
    instanceClass: row.instanceClass,
    memoryLimitMb: row.memoryLimit,
    startedAt: row.createdAt,
    stoppedAt: row.deletedAt,
  };
}

/** One labelled series of a container metric: `values[i]` belongs to `ticks[i]`, null for a gap. */
export interface MetricSeries {
  label: string;
  values: (number | null)[];
}

/**
 * True for the runtimes that run real containers on this Berth's machines (docker, swarm): apps there
 * are pushed with git, and default endpoint hostnames hang off BERTH_APPS_DOMAIN.
 */
export function runsRealContainers(runtime: string): boolean {
  return runtime === 'docker' || isSwarmRuntime(runtime);
}

/**
 * The runtime key of a Swarm cluster registered as a stack (`npm run admin -- add-stack`): each such
 * cluster runs under its own key, beside `swarm` (the cluster at BERTH_SWARM_HOST), so every lookup
 * by a stack's `runtime` finds its own cluster.
 */
export const swarmStackRuntime = (stackName: string) => `swarm:${stackName}`;

/** True for `swarm` and for the runtime of every registered Swarm cluster (`swarm:<stack>`). */
export function isSwarmRuntime(runtime: string): boolean {
  return runtime === 'swarm' || runtime.startsWith('swarm:');
}

/** The kind of runtime a stack runs on, as the API shows it: `swarm` for every Swarm cluster. */
export function runtimeKind(runtime: string): string {
  return isSwarmRuntime(runtime) ? 'swarm' : runtime;
}

export class RuntimeError extends Error {
  override name = 'RuntimeError';
}
