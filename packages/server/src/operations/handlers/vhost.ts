import { endpointMessages, type OperationBody, type OperationTypeOf } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { apps, certificates, databases, environments, services, stacks, vhosts } from '../../db/schema.ts';
import { unprocessable } from '../../http/errors.ts';
import type { EndpointPlan, EndpointTarget } from '../../runtimes/runtime.ts';
import { RuntimeError } from '../../runtimes/runtime.ts';
import { failure, type Handler, type HandlerContext, type OperationResource } from '../handler.ts';
import type { OperationRow } from '../operations.hal.ts';
import { recordsOf } from './app-services.ts';

type VhostRow = typeof vhosts.$inferSelect;
type VhostHandler<T extends OperationTypeOf<'vhost'>> = Handler<VhostRow, OperationBody<'vhost', T>>;

/**
 * Operations on endpoints (contract §6: provision, deprovision, renew), spec 2 §4 statuses:
 * provisioning → provisioned | provision_failed, deprovisioning → (removed) | deprovision_failed.
 * The in-between status is set as the operation is queued; the end is recorded when it finishes.
 */

/** An endpoint with what the runtime needs to know about where it lives, loaded when the operation runs. */
async function loadEndpoint(db: Db, vhostId: number) {
  const [row] = await db
    .select({
      vhost: vhosts,
      serviceHandle: services.handle,
      appId: services.appId,
      databaseId: services.databaseId,
      appHandle: apps.handle,
      databaseHandle: databases.handle,
      environmentHandle: environments.handle,
      stack: stacks,
      certificateCommonName: certificates.commonName,
      certificateBody: certificates.certificateBody,
      certificateKey: certificates.privateKey,
    })
    .from(vhosts)
    .innerJoin(services, eq(vhosts.serviceId, services.id))
    .innerJoin(environments, eq(vhosts.environmentId, environments.id))
    .innerJoin(stacks, eq(environments.stackId, stacks.id))
    .leftJoin(apps, eq(services.appId, apps.id))
    .leftJoin(databases, eq(services.databaseId, databases.id))
    .leftJoin(certificates, eq(vhosts.certificateId, certificates.id))
    .where(eq(vhosts.id, vhostId));
  if (!row) throw new RuntimeError(`Endpoint ${vhostId} no longer exists`);
  const { vhost } = row;
  const target: EndpointTarget = {
    id: vhost.id,
    stackName: row.stack.name,
    region: row.stack.region,
    defaultDomain: row.stack.defaultDomain,
    internalDomain: row.stack.internalDomain,
    environmentHandle: row.environmentHandle,
    resourceHandle: row.appHandle ?? row.databaseHandle ?? '',
    serviceHandle: row.serviceHandle,
    appId: row.appId,
    databaseId: row.databaseId,
    recordedContainers:
      (await recordsOf(db, [vhost.serviceId])).get(vhost.serviceId)?.recordedContainers ?? [],
  };
  const plan: EndpointPlan = {
    type: vhost.type,
    platform: vhost.platform,
    acme: vhost.acme,
    default: vhost.isDefault,
    defaultName: vhost.defaultName,
    internal: vhost.internal,
    shared: vhost.shared,
    userDomain: vhost.userDomain,
    certificateCommonName: row.certificateCommonName ?? null,
    containerPort: vhost.containerPort,
    containerPorts: vhost.containerPorts,
    ipWhitelist: vhost.ipWhitelist,
    loadBalancingAlgorithm: vhost.loadBalancingAlgorithm,
    externalHost: vhost.externalHost,
    internalHost: vhost.internalHost,
    dockerName: vhost.dockerName,
    acmeStatus: vhost.acmeStatus,
    tokenHeader: vhost.tokenHeader,
    certificate:
      row.certificateBody && row.certificateKey
        ? { certificatePem: row.certificateBody, keyPem: row.certificateKey }
        : null,
  };
  return { vhost, target, plan };
}

async function setStatus(tx: Tx, op: OperationRow, status: string) {
  await tx.update(vhosts).set({ status, updatedAt: new Date() }).where(eq(vhosts.id, op.resourceId));
}

const BUSY = ['provisioning', 'deprovisioning'];

/** How operation lists name an endpoint: the hostname users reach, once there is one. */
export function endpointHandle(vhost: VhostRow): string {
  return vhost.virtualDomain || vhost.userDomain || vhost.externalHost || `endpoint-${vhost.id}`;
}

const provisionEndpoint: VhostHandler<'provision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'provisioning');
  },
  async run(ctx) {
    const { vhost, target, plan } = await loadEndpoint(ctx.db, ctx.op.resourceId);
    const made = await ctx.runtime.provisionEndpoint(ctx, target, plan);
    return {
      async succeed(tx) {
        await tx
          .update(vhosts)
          .set({
            status: 'provisioned',
            externalHost: made.externalHost,
            internalHost: made.internalHost,
            dockerName: made.dockerName,
            virtualDomain: made.virtualDomain,
            externalPorts: made.ports ?? null,
            acmeStatus: made.acme?.status ?? '',
            acmeConfiguration: made.acme?.configuration ?? null,
            acmeDnsChallengeHost: made.acme?.dnsChallengeHost ?? '',
            updatedAt: new Date(),
          })
          .where(eq(vhosts.id, vhost.id));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'provision_failed');
  },
};

/** Managed HTTPS: once the user's DNS records are in place, the certificate is issued (acme_status ready). */
const renewEndpoint: VhostHandler<'renew'> = {
  accept(_body, vhost) {
    if (!vhost.acme) throw unprocessable(endpointMessages.renewManagedOnly);
    if (vhost.status !== 'provisioned') throw unprocessable(endpointMessages.renewProvisionedOnly);
    return {};
  },
  async run(ctx) {
    const { vhost, target, plan } = await loadEndpoint(ctx.db, ctx.op.resourceId);
    if (!vhost.acme) throw await failure(ctx, `Endpoint ${vhost.id} does not use managed HTTPS`);
    await ctx.runtime.renewEndpointCertificate(ctx, target, plan);
    return {
      async succeed(tx) {
        await tx
          .update(vhosts)
          .set({ acmeStatus: 'ready', updatedAt: new Date() })
          .where(eq(vhosts.id, vhost.id));
      },
    };
  },
};

const deprovisionEndpoint: VhostHandler<'deprovision'> = {
  async onEnqueue(tx, op) {
    await setStatus(tx, op, 'deprovisioning');
  },
  async run(ctx) {
    const { vhost, target, plan } = await loadEndpoint(ctx.db, ctx.op.resourceId);
    await ctx.runtime.deprovisionEndpoint(ctx, target, plan);
    return {
      async succeed(tx) {
        // The endpoint is gone; its operations stay in the activity log.
        await tx.delete(vhosts).where(eq(vhosts.id, vhost.id));
      },
    };
  },
  async fail(tx, op) {
    await setStatus(tx, op, 'deprovision_failed');
  },
};

/**
 * Removes every endpoint of an app or a database from the runtime, for its deprovision: the rows would go
 * with its services, but only the runtime can delete their load balancers. Each row goes as soon as
 * its load balancer is gone, so a failure part-way leaves exactly the endpoints still in the runtime
 * (the failing one `deprovision_failed`) for the next attempt.
 */
export async function deprovisionEndpointsOf(
  ctx: HandlerContext,
  owner: { kind: 'app' | 'database'; id: number; handle: string },
) {
  const ownedBy = owner.kind === 'app' ? services.appId : services.databaseId;
  const endpoints = await ctx.db
    .select({ id: vhosts.id, status: vhosts.status })
    .from(vhosts)
    .where(
      inArray(
        vhosts.serviceId,
        ctx.db.select({ id: services.id }).from(services).where(eq(ownedBy, owner.id)),
      ),
    )
    .orderBy(vhosts.id);
  // An endpoint operation running meanwhile could create a load balancer after this removed it.
  const busy = endpoints.find(
    (endpoint) => endpoint.status === 'provisioning' || endpoint.status === 'deprovisioning',
  );
  if (busy) {
    throw await failure(
      ctx,
      `Endpoint ${busy.id} of ${owner.handle} is ${busy.status}; deprovision the ${owner.kind} once its operation is done`,
    );
  }
  for (const { id } of endpoints) {
    const { target, plan } = await loadEndpoint(ctx.db, id);
    await ctx.log(`Deprovisioning endpoint ${id} of ${owner.handle}`);
    try {
      await ctx.runtime.deprovisionEndpoint(ctx, target, plan);
    } catch (error) {
      await ctx.write((tx) =>
        tx
          .update(vhosts)
          .set({ status: 'deprovision_failed', updatedAt: new Date() })
          .where(eq(vhosts.id, id)),
      );
      throw error;
    }
    await ctx.write((tx) => tx.delete(vhosts).where(eq(vhosts.id, id)));
  }
}

export const vhostOperations: OperationResource<'vhost', VhostRow> = {
  notFound: 'Endpoint',
  readAction: 'vhost.read',
  load: async (db, id) => (await db.select().from(vhosts).where(eq(vhosts.id, id)))[0],
  handle: endpointHandle,
  // An endpoint waits for its running operation before it takes another.
  refusal: (vhost) => (BUSY.includes(vhost.status) ? endpointMessages.busy(vhost.status) : null),
  handlers: {
    provision: provisionEndpoint,
    renew: renewEndpoint,
    deprovision: deprovisionEndpoint,
  },
};
