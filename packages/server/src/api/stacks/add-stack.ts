import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SHARED_STACK } from '@berth/core';
import type Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import { type Config, engineAddressKind, isRegistryAddress, SWARM_TLS_FILES } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { organizations, stacks } from '../../db/schema.ts';
import { isUuid } from '../../http/ids.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import type { EngineTls } from '../../runtimes/swarm/swarm-databases.ts';
import { swarmIdentity } from '../../runtimes/swarm/swarm-manager.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import { registerSwarmStack, stackOfSwarmCluster } from './swarm-clusters.service.ts';

export const ADD_STACK_USAGE = `  add-stack NAME --runtime swarm --host ADDRESS [--tls-dir DIR] [--registry HOST:PORT]
            [--region REGION] [--organization ORG_ID]
                                    register a further Swarm cluster as a stack, its manager at ADDRESS
                                    (unix:///path or tcp://host:2376 with the client certificates in
                                    DIR: ca.pem, cert.pem, key.pem, kept sealed with the server secret);
                                    its nodes pull from --registry (default BERTH_REGISTRY); shared
                                    unless --organization makes it that organization's dedicated stack`;

/** A mistake in the command or a cluster that cannot be one: printed as is. */
export class AddStackError extends Error {}

const OPTIONS = ['--runtime', '--host', '--tls-dir', '--registry', '--region', '--organization'] as const;
type Option = (typeof OPTIONS)[number];
/** A PEM file of a client certificate set is a few kilobytes; more is no certificate. */
const MAX_PEM_BYTES = 64 * 1024;
const STACK_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface AddStackDeps {
  db: Db;
  /** Seals the manager's TLS certificates (swarmClusterTlsBox). */
  box: SecretBox;
  /** BERTH_SWARM_HOST's cluster, which the default stack runs on, and BERTH_REGISTRY. */
  defaultSwarm: Config['swarm'];
  /** BERTH_APPS_DOMAIN: the endpoints' default hostnames hang off it, on every real stack. */
  appsDomain: string;
  autoscaling: { horizontal: boolean; vertical: boolean };
  engineAt(host: string, tls?: EngineTls | string | null): Docker;
}

function parseOptions(args: readonly string[]): Partial<Record<Option, string>> {
  const values: Partial<Record<Option, string>> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i] ?? '';
    const value = args[i + 1];
    if (!(OPTIONS as readonly string[]).includes(flag))
      throw new AddStackError(`Unknown option ${flag.slice(0, 100)}\n\n${ADD_STACK_USAGE}`);
    if (value === undefined || value.startsWith('--'))
      throw new AddStackError(`${flag} needs a value\n\n${ADD_STACK_USAGE}`);
    if (values[flag as Option] !== undefined) throw new AddStackError(`${flag} is given twice`);
    values[flag as Option] = value.slice(0, 5000);
  }
  return values;
}

/** The client certificates in DIR, each checked to be what its name says. */
function readClientTls(dir: string): EngineTls {
  const missing = SWARM_TLS_FILES.filter((file) => !fs.existsSync(path.join(dir, file)));
  if (missing.length) throw new AddStackError(`--tls-dir: ${dir} has no ${missing.join(', ')}`);
  const read = (file: string) => {
    const where = path.join(dir, file);
    if (fs.statSync(where).size > MAX_PEM_BYTES)
      throw new AddStackError(`--tls-dir: ${file} is larger than ${MAX_PEM_BYTES / 1024} KB: no PEM file`);
    return fs.readFileSync(where, 'utf8');
  };
  const tls = { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') };
  for (const [file, pem, check] of [
    ['ca.pem', tls.ca, (text: string) => new X509Certificate(text)],
    ['cert.pem', tls.cert, (text: string) => new X509Certificate(text)],
    ['key.pem', tls.key, (text: string) => createPrivateKey(text)],
  ] as const) {
    try {
      check(pem);
    } catch {
      throw new AddStackError(
        `--tls-dir: ${file} is not a PEM ${file === 'key.pem' ? 'private key' : 'certificate'}`,
      );
    }
  }
  return tls;
}

/**
 * `npm run admin -- add-stack NAME --runtime swarm --host …`: registers a further Swarm cluster as a
 * stack. The manager must answer as one, and the cluster be no other stack's (two runtimes on one
 * Swarm would take each other's services for orphans). The server and its workers take it up within
 * CLUSTER_LOOK_MS, or at their next start. Answers the line to print.
 */
export async function addStackCommand(deps: AddStackDeps, argv: readonly string[]): Promise<string> {
  const [name, ...rest] = argv;
  if (!name || name.startsWith('--'))
    throw new AddStackError(`add-stack takes the stack's name first\n\n${ADD_STACK_USAGE}`);
  if (name.length > 63 || !STACK_NAME.test(name))
    throw new AddStackError(
      `A stack's name is 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit, got "${name.slice(0, 100)}"`,
    );
  const options = parseOptions(rest);
  if (options['--runtime'] !== 'swarm')
    throw new AddStackError(
      `--runtime swarm is needed: only Swarm clusters are added as stacks (the default stack runs on BERTH_RUNTIME)\n\n${ADD_STACK_USAGE}`,
    );
  const host = options['--host'] ?? '';
  const kind = engineAddressKind(host);
  if (!kind)
    throw new AddStackError(
      `--host must be the Swarm manager's Engine API, unix:///path/to/docker.sock or tcp://host:2376, got "${host.slice(0, 100)}"`,
    );
  const tlsDir = options['--tls-dir'];
  if (kind === 'tcp' && !tlsDir)
    throw new AddStackError(
      `--tls-dir must name the directory of the manager's TLS client certificates (${SWARM_TLS_FILES.join(', ')}): ${host.slice(0, 100)} is reached over TCP, and only with TLS`,
    );
  if (kind === 'unix' && tlsDir)
    throw new AddStackError(`--tls-dir is for a tcp:// manager: ${host.slice(0, 100)} is a local socket`);
  const registry = options['--registry'] ?? deps.defaultSwarm?.registry;
  if (!registry)
    throw new AddStackError(
      '--registry must name the registry every node of the cluster pulls from (host:port): BERTH_REGISTRY is not set to stand in',
    );
  if (!isRegistryAddress(registry))
    throw new AddStackError(
      `--registry must be the host:port of the registry every node of the cluster pulls from (registry.example.com:5000), got "${registry.slice(0, 100)}"`,
    );
  const region = options['--region'] ?? DEFAULT_SHARED_STACK.region;
  if (region.length > 63 || !REGION.test(region))
    throw new AddStackError(
      `--region is 1 to 63 lower-case letters, digits and dashes, got "${region.slice(0, 100)}"`,
    );
  const organizationId = options['--organization'] ?? null;
  if (organizationId !== null) {
    const [organization] = isUuid(organizationId)
      ? await deps.db
          .select({ id: organizations.id })
          .from(organizations)
          .where(eq(organizations.id, organizationId))
      : [];
    if (!organization) throw new AddStackError(`No organization has the id ${organizationId.slice(0, 100)}`);
  }
  const [taken] = await deps.db.select({ id: stacks.id }).from(stacks).where(eq(stacks.name, name));
  if (taken) throw new AddStackError(`A stack named ${name} exists already`);

  const tls = tlsDir ? readClientTls(path.resolve(tlsDir)) : null;
  let identity: Awaited<ReturnType<typeof swarmIdentity>>;
  try {
    identity = await swarmIdentity(deps.engineAt(host, tls), host);
  } catch (error) {
    throw error instanceof RuntimeError ? new AddStackError(error.message) : error;
  }
  const owner = await stackOfSwarmCluster(deps.db, identity.clusterId);
  if (owner)
    throw new AddStackError(`The Swarm at ${host} is stack ${owner}'s already: one cluster runs one stack`);
  if (deps.defaultSwarm) {
    const defaultCluster = await swarmIdentity(
      deps.engineAt(deps.defaultSwarm.host, deps.defaultSwarm.tlsDir),
      deps.defaultSwarm.host,
    ).catch(() => null);
    if (defaultCluster?.clusterId === identity.clusterId)
      throw new AddStackError(
        `The Swarm at ${host} is BERTH_SWARM_HOST's, which the default stack runs on: one cluster runs one stack`,
      );
  }
  const stack = await registerSwarmStack(deps.db, deps.box, {
    name,
    region,
    organizationId,
    defaultDomain: deps.appsDomain,
    autoscaling: deps.autoscaling,
    host,
    clusterId: identity.clusterId,
    registry,
    tls,
  });
  const whose = organizationId ? `dedicated to organization ${organizationId}` : 'shared';
  return `Stack ${stack.name} (${whose}) runs on the Swarm at ${host}: ${identity.nodes} node${identity.nodes === 1 ? '' : 's'}, images through ${registry}. Berth's server and workers take it up within 30 s (on the embedded database, at their next start); its nodes show on the stack's Nodes tab.`;
}
