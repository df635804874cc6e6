import { formatCents } from '@berth/core';
import type Docker from 'dockerode';
import { eq, sql } from 'drizzle-orm';
import {
  ADD_STACK_USAGE,
  type AddStackDeps,
  AddStackError,
  addStackCommand,
} from './api/stacks/add-stack.ts';
import { swarmClusterOfStack } from './api/stacks/swarm-clusters.service.ts';
import type { InvoicesService } from './billing/invoices/invoices.service.ts';
import { PLANS_USAGE, PlansUsageError, plansCommand } from './billing/plans/plans-admin.ts';
import type { Db } from './db/client.ts';
import { stacks, users } from './db/schema.ts';
import { stopEdge } from './runtimes/docker/caddy-process.ts';
import { isSwarmRuntime, RuntimeError, runtimeKind } from './runtimes/runtime.ts';
import { engineAt } from './runtimes/swarm/swarm-databases.ts';
import { type NodeAvailability, SwarmNodeError } from './runtimes/swarm/swarm-node-admin.ts';
import { setSwarmNodeAvailability } from './runtimes/swarm/swarm-node-availability.ts';

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

Commands:
  make-superuser EMAIL              let the user impersonate others, with write access if they choose
  make-superuser EMAIL --read-only  let the user impersonate others, read-only only
  revoke-superuser EMAIL            take both rights away again
  stop-edge                         stop the docker runtime's edge (Caddy), which outlives the server:
                                    the apps' endpoints stop answering until Berth starts on docker again
  close-period                      close every organization's billing period now: one invoice each for
                                    what it used since its last invoice, up to the end of this hour
  drain-node STACK NODE             on a swarm stack, move every task off the node (by id or host name)
                                    and schedule none there: before taking its machine down
  activate-node STACK NODE          let the node take tasks again
${ADD_STACK_USAGE}
${PLANS_USAGE}`;

export class AdminUsageError extends Error {}

const HOUR_MS = 3_600_000;

/**
 * The operator's commands (`npm run admin -- …`), run against the server's database. Superusers exist
 * only through them: no API call grants the flag. Answers the line to print.
 */
export async function runAdminCommand(
  db: Db,
  argv: readonly string[],
  options: {
    /** BERTH_SWARM_HOST's manager: the default stack's cluster. */
    swarmManager?: () => Docker;
    /** What add-stack needs beside the database; also opens registered clusters' certificates. */
    addStack?: Omit<AddStackDeps, 'db'>;
  } = {},
): Promise<string> {
  if (argv[0] === 'add-stack') {
    if (!options.addStack)
      throw new AdminUsageError('add-stack runs from `npm run admin`, with the server secret');
    try {
      return await addStackCommand({ db, ...options.addStack }, argv.slice(1));
    } catch (error) {
      throw error instanceof AddStackError ? new AdminUsageError(error.message) : error;
    }
  }
  if (argv[0] === 'drain-node' || argv[0] === 'activate-node')
    return nodeAvailabilityCommand(db, argv, async (stack) => {
      if (stack.runtime === 'swarm') return (options.swarmManager ?? noSwarmManager)();
      // A cluster registered as a stack (add-stack): its manager with its sealed certificates.
      const box = options.addStack?.box;
      const cluster = box ? await swarmClusterOfStack(db, box, stack) : null;
      if (!cluster) throw new AdminUsageError(`Stack ${stack.name} has no registered Swarm cluster`);
      return engineAt(cluster.host, cluster.tls);
    });
  if (argv[0] === 'plans') {
    try {
      return await plansCommand(db, argv.slice(1));
    } catch (error) {
      throw error instanceof PlansUsageError ? new AdminUsageError(error.message) : error;
    }
  }
  const [command, email, ...flags] = argv;
  if (!command || !email || email.startsWith('-')) throw new AdminUsageError(ADMIN_USAGE);
  const readOnly = flags.includes('--read-only');
  const unknown = flags.filter((flag) => flag !== '--read-only');
  if (unknown.length > 0) throw new AdminUsageError(`Unknown option ${unknown[0]}\n\n${ADMIN_USAGE}`);
  let values: { superuser: boolean; readOnlyImpersonate: boolean };
  if (command === 'make-superuser') {
    values = readOnly
      ? { superuser: false, readOnlyImpersonate: true }
      : { superuser: true, readOnlyImpersonate: false };
  } else if (command === 'revoke-superuser' && !readOnly) {
    values = { superuser: false, readOnlyImpersonate: false };
  } else {
    throw new AdminUsageError(`Unknown command ${command}\n\n${ADMIN_USAGE}`);
  }
  const [user] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .returning({ email: users.email });
  if (!user) throw new AdminUsageError(`No user with the email address ${email}`);
  if (values.superuser) return `${user.email} is now a superuser (may impersonate, with write access).`;
  if (values.readOnlyImpersonate) return `${user.email} may now impersonate other users, read-only.`;
  return `${user.email} is no longer a superuser and may not impersonate.`;
}

/**
 * `npm run admin -- stop-edge`: stops the edge (Caddy) that serves the apps' endpoints from this data
 * directory. It outlives the server by design, so stopping it is the operator's own step; the caller
 * holds the data directory (the server is stopped, or it would start the edge again).
 */
export async function stopEdgeCommand(edgeDir: string, argv: readonly string[]): Promise<string> {
  if (argv.length > 0) throw new AdminUsageError(`Unknown option ${argv[0]}\n\n${ADMIN_USAGE}`);
  const pid = await stopEdge(edgeDir);
  return pid === null
    ? `No edge (Caddy) runs from ${edgeDir}.`
    : `Stopped the edge (Caddy, pid ${pid}): the apps' endpoints no longer answer until Berth starts with BERTH_RUNTIME=docker again.`;
}

/**
 * `npm run admin -- close-period`: invoices every organization for what it used since its last invoice,
 * up to the end of the current hour. The meter counts an hour as used once it has begun (it samples each
 * hour at its start), so the hour in progress is billed whole here and the next period starts after it.
 */
export async function closePeriodCommand(
  invoices: Pick<InvoicesService, 'meter' | 'closePeriods'>,
  argv: readonly string[],
  now: Date = new Date(),
): Promise<string> {
  if (argv.length > 0) throw new AdminUsageError(`Unknown option ${argv[0]}\n\n${ADMIN_USAGE}`);
  // This hour's sample, in case no meter has taken it (the server is stopped while the command runs).
  await invoices.meter(now);
  const made = await invoices.closePeriods(new Date(Math.floor(now.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS));
  if (made.length === 0)
    return 'No billing period to close: every organization is invoiced to the end of this hour.';
  const total = made.reduce((sum, invoice) => sum + invoice.totalCents, 0);
  return `Closed ${made.length} billing period(s) at ${made[0]?.periodEnd.toISOString()}: ${made.length} invoice(s), ${formatCents(total)} in all.`;
}

const MAX_STACK_NAME_LENGTH = 128;

function noSwarmManager(): never {
  throw new AdminUsageError(
    'No swarm cluster is configured: BERTH_RUNTIME=swarm and BERTH_SWARM_HOST name its manager (see the README)',
  );
}

/**
 * `npm run admin -- drain-node STACK NODE` (and `activate-node`): sets a node's availability on a swarm
 * stack's cluster. Draining moves the node's tasks to the other nodes (Swarm reschedules them) and puts
 * none there until the node is activated again. `manager` gives the stack's manager (BERTH_SWARM_HOST's,
 * or its registered cluster's).
 */
export async function nodeAvailabilityCommand(
  db: Db,
  argv: readonly string[],
  manager: (stack: { id: number; name: string; runtime: string }) => Docker | Promise<Docker>,
): Promise<string> {
  const [command, stackName, nodeRef, ...rest] = argv;
  const availability: NodeAvailability | null =
    command === 'drain-node' ? 'drain' : command === 'activate-node' ? 'active' : null;
  if (!availability) throw new AdminUsageError(`Unknown command ${command}\n\n${ADMIN_USAGE}`);
  if (!stackName || !nodeRef || rest.length > 0)
    throw new AdminUsageError(`${command} takes a stack and a node: ${command} STACK NODE\n\n${ADMIN_USAGE}`);
  if (stackName.length > MAX_STACK_NAME_LENGTH) throw new AdminUsageError('No stack has so long a name');
  const [stack] = await db
    .select({ id: stacks.id, name: stacks.name, runtime: stacks.runtime })
    .from(stacks)
    .where(eq(stacks.name, stackName));
  if (!stack) throw new AdminUsageError(`No stack named ${stackName}`);
  if (!isSwarmRuntime(stack.runtime))
    throw new AdminUsageError(
      `Stack ${stack.name} runs on the ${runtimeKind(stack.runtime)} runtime: only a swarm stack has nodes to drain or activate`,
    );
  try {
    const node = await setSwarmNodeAvailability(await manager(stack), nodeRef, availability);
    const what = `Node ${node.hostname} (${node.id}) of stack ${stack.name}`;
    if (node.previous === availability) return `${what} was already ${availability}.`;
    return availability === 'drain'
      ? `${what} is now drained (was ${node.previous}): Swarm moves its tasks to the other nodes and schedules none there.`
      : `${what} is now active (was ${node.previous}): it takes tasks again.`;
  } catch (error) {
    throw error instanceof SwarmNodeError || error instanceof RuntimeError
      ? new AdminUsageError(error.message)
      : error;
  }
}
