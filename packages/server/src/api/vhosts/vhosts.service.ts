import { randomBytes } from 'node:crypto';
import {
  type ActionName,
  createEndpointSchema,
  defaultEndpointDomain,
  defaultEndpointName,
  endpointMessages,
  endpointSettingsProblems,
  sharedConversionProblem,
  updateEndpointSchema,
} from '@berth/core';
import { and, count, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import { planLimits } from '../../billing/plans/plan-limits.ts';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import {
  apps as appRows,
  certificates,
  databases,
  environments,
  operations,
  services,
  stacks,
  vhosts,
} from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound, parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { endpointHandle } from '../../operations/handlers/vhost.ts';
import type { OperationRow } from '../../operations/operations.hal.ts';
import type { OperationsService } from '../../operations/operations.service.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';
import type { ServicesService } from '../services/services.service.ts';
import type { VhostRow } from './vhosts.hal.ts';

export const vhostMessages = {
  certificateNotFound: 'Certificate not found in this environment',
  busy: endpointMessages.busy,
  domainTaken: (domain: string) => `The domain ${domain} is already used by another endpoint on this stack.`,
  domainReserved: (domain: string) =>
    `The domain ${domain} belongs to this stack's default endpoints and cannot be used as a custom domain.`,
} as const;

/** First key of the advisory locks on custom domains ("vhos"); the second is a hash of stack and domain. */
const DOMAIN_LOCK = 0x76686f73;

const BUSY = ['provisioning', 'deprovisioning'];
/** Statuses of an endpoint that has nothing in the runtime yet (without an external host): deleted at once. */
const NEVER_PROVISIONED = ['pending', 'provision_failed'];

/** The plan's endpoint limit for the organization the environment belongs to (plan-limits.ts). */
async function requireEndpointSlot(tx: DbOrTx, environmentId: number): Promise<void> {
  const [environment] = await tx
    .select({ organizationId: environments.organizationId })
    .from(environments)
    .where(eq(environments.id, environmentId));
  if (!environment) throw notFound('Environment');
  const limits = await planLimits(tx, environment.organizationId);
  const [existing] = await tx
    .select({ value: count() })
    .from(vhosts)
    .innerJoin(environments, eq(vhosts.environmentId, environments.id))
    .where(eq(environments.organizationId, environment.organizationId));
  limits.requireCount('endpoints', (existing?.value ?? 0) + 1);
}

/**
 * Endpoints (vhosts): records created against a service, then provisioned, changed and removed
 * through operations (contract §5.9, §6; spec 2 §4 "Endpoint provisioning").
 */
export function createVhostsService(deps: {
  db: Db;
  operations: OperationsService;
  apps: AppsService;
  services: ServicesService;
}) {
  const { db, apps, services: servicesService } = deps;
  const { access } = apps;

  const page = (where: SQL | undefined, paging: Paging | null) =>
    selectPage(db, vhosts, { where, orderBy: [vhosts.id], paging });

  /** An endpoint the caller may take the action on, with its environment (404 invisible or absent, 403 denied). */
  async function load(
    caller: CallerAccess,
    id: number | null,
    action: ActionName,
  ): Promise<{ vhost: VhostRow; environment: EnvironmentRow }> {
    const [found] = id === null ? [] : await db.select().from(vhosts).where(eq(vhosts.id, id));
    const { row: vhost, environment } = await access.resource(caller, found, action, 'Endpoint');
    return { vhost, environment };
  }

  /** A certificate reference from a body (contract §1.9): it must be a certificate of the same environment. */
  async function certificateIn(reference: string, environmentId: number) {
    const [certificate] = await db
      .select({ id: certificates.id, commonName: certificates.commonName })
      .from(certificates)
      .where(and(eq(certificates.id, Number(reference)), eq(certificates.environmentId, environmentId)));
    if (!certificate) throw unprocessable(vhostMessages.certificateNotFound, { certificate: ['not found'] });
    return certificate;
  }

  /** What a service's default endpoint is named after: its app's (or database's) handle and its environment's. */
  async function defaultNaming(serviceId: number) {
    const [row] = await db
      .select({
        environmentHandle: environments.handle,
        defaultDomain: stacks.defaultDomain,
        appHandle: appRows.handle,
        databaseHandle: databases.handle,
      })
      .from(services)
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .leftJoin(appRows, eq(services.appId, appRows.id))
      .leftJoin(databases, eq(services.databaseId, databases.id))
      .where(eq(services.id, serviceId));
    if (!row) throw notFound('Service');
    return {
      resourceHandle: row.appHandle ?? row.databaseHandle ?? '',
      environmentHandle: row.environmentHandle,
      defaultDomain: row.defaultDomain,
    };
  }

  /**
   * The first of `<app>-<environment>`, then `-2` to `-9`, that no default endpoint of the installation
   * has (every organization's share the apps domain); past those, a random suffix. One query on the
   * unique index however many endpoints there are.
   */
  async function freeDefaultName(tx: Tx, naming: { resourceHandle: string; environmentHandle: string }) {
    const name = (suffix: string) =>
      defaultEndpointName(naming.resourceHandle, naming.environmentHandle, suffix);
    const candidates = ['', '-2', '-3', '-4', '-5', '-6', '-7', '-8', '-9'].map(name);
    const taken = new Set(
      (
        await tx
          .select({ name: vhosts.defaultName })
          .from(vhosts)
          .where(inArray(vhosts.defaultName, candidates))
      ).map((row) => row.name),
    );
    return (
      candidates.find((candidate) => !taken.has(candidate)) ?? name(`-${randomBytes(3).toString('hex')}`)
    );
  }

  /** The hostname users will reach, known before provisioning except for the runtime's own names. */
  function expectedDomain(
    settings: { acme: boolean; isDefault: boolean; userDomain: string },
    certificateCommonName: string | null,
  ): string {
    if (settings.acme) return settings.userDomain;
    return settings.userDomain || certificateCommonName || '';
  }

  /**
   * A stack's shared edge routes by Host and SNI, so a custom domain belongs to one endpoint of the
   * stack, whichever organization's. Every endpoint row counts: a deprovisioned one is deleted, and
   * until then it may still hold the domain in the runtime. Claims on one domain of one stack wait for
   * each other (a lock held until the transaction ends), so parallel requests cannot both find it free.
   */
  async function claimDomain(tx: Tx, environmentId: number, domain: string, exceptId: number | null) {
    if (domain === '') return;
    const key = domain.toLowerCase();
    const [environment] = await tx
      .select({ stackId: environments.stackId, defaultDomain: stacks.defaultDomain })
      .from(environments)
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .where(eq(environments.id, environmentId));
    if (!environment) throw notFound('Environment');
    // Default endpoints are named <app>-<environment>.<default domain>: a custom domain there could take one over.
    const reserved = environment.defaultDomain.toLowerCase();
    if (key === reserved || key.endsWith(`.${reserved}`)) {
      throw unprocessable(vhostMessages.domainReserved(key), { user_domain: ['reserved'] });
    }
    await tx.execute(
      sql`select pg_advisory_xact_lock(${DOMAIN_LOCK}::int, hashtext(${`${environment.stackId}:${key}`}::text))`,
    );
    const [taken] = await tx
      .select({ id: vhosts.id })
      .from(vhosts)
      .innerJoin(environments, eq(vhosts.environmentId, environments.id))
      .where(
        and(
          eq(environments.stackId, environment.stackId),
          or(eq(sql`lower(${vhosts.userDomain})`, key), eq(sql`lower(${vhosts.virtualDomain})`, key)),
          exceptId === null ? undefined : ne(vhosts.id, exceptId),
        ),
      )
      .limit(1);
    if (taken) throw unprocessable(vhostMessages.domainTaken(key), { user_domain: ['taken'] });
  }

  function problemsError(problems: string[]) {
    const [first] = problems;
    return first ? unprocessable(first, { base: problems }) : null;
  }

  /** `DELETE` of a provisioned endpoint: its handler marks it deprovisioning as the operation is queued. */
  function deprovision(caller: CallerAccess, vhost: VhostRow, environment: EnvironmentRow) {
    return deps.operations.enqueue({
      organizationId: environment.organizationId,
      environmentId: environment.id,
      resourceType: 'vhost',
      resourceId: vhost.id,
      resourceHandle: endpointHandle(vhost),
      type: 'deprovision',
      user: caller.user,
    });
  }

  return {
    access,

    /** Endpoints of every environment the caller may see, across their organizations (contract §1.11). */
    async list(ref: CallerRef, paging: Paging | null): Promise<Page<VhostRow>> {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'vhost.read');
      return page(inArray(vhosts.environmentId, environmentIds), paging);
    },

    async listInEnvironment(ref: CallerRef, environmentId: number | null, paging: Paging | null) {
      const environment = await access.environment(await access.caller(ref), environmentId, 'vhost.read');
      return page(eq(vhosts.environmentId, environment.id), paging);
    },

    async listForApp(ref: CallerRef, appId: number | null, paging: Paging | null) {
      const app = await apps.load(await access.caller(ref), appId, 'vhost.read');
      const appServices = db.select({ id: services.id }).from(services).where(eq(services.appId, app.id));
      return page(inArray(vhosts.serviceId, appServices), paging);
    },

    async listForDatabase(ref: CallerRef, databaseId: number | null, paging: Paging | null) {
      const caller = await access.caller(ref);
      const [database] =
        databaseId === null ? [] : await db.select().from(databases).where(eq(databases.id, databaseId));
      const { row } = await access.resource(caller, database, 'vhost.read', 'Database');
      const databaseServices = db
        .select({ id: services.id })
        .from(services)
        .where(eq(services.databaseId, row.id));
      return page(inArray(vhosts.serviceId, databaseServices), paging);
    },

    async listForService(ref: CallerRef, serviceId: number | null, paging: Paging | null) {
      const service = await servicesService.load(await access.caller(ref), serviceId, 'vhost.read');
      return page(eq(vhosts.serviceId, service.id), paging);
    },

    async get(ref: CallerRef, id: number | null): Promise<VhostRow> {
      return (await load(await access.caller(ref), id, 'vhost.read')).vhost;
    },

    /**
     * `POST /services/:id/vhosts`: the record only, `pending` until the console posts `provision`. The
     * body is read once the caller may create here, so others get 404 or 403 whatever they sent.
     */
    async create(ref: CallerRef, serviceId: number | null, body: unknown) {
      const service = await servicesService.load(await access.caller(ref), serviceId, 'vhost.create');
      const input = parseBody(createEndpointSchema, body);
      const certificate = input.certificate
        ? await certificateIn(input.certificate, service.environmentId)
        : null;
      const userDomain = input.user_domain ?? '';
      const naming = input.default ? await defaultNaming(service.id) : null;
      return db.transaction(async (tx) => {
        await requireEndpointSlot(tx, service.environmentId);
        await claimDomain(tx, service.environmentId, userDomain, null);
        const values = {
          environmentId: service.environmentId,
          serviceId: service.id,
          certificateId: certificate?.id ?? null,
          type: input.type,
          platform: input.platform,
          status: 'pending',
          acme: input.acme,
          isDefault: input.default,
          internal: input.internal,
          shared: input.shared,
          ipWhitelist: input.ip_whitelist,
          containerPort: input.container_port ?? null,
          containerPorts: input.container_ports ?? [],
          tokenHeader: input.token_header ?? null,
          loadBalancingAlgorithm: input.load_balancing_algorithm_type ?? 'round_robin',
          userDomain,
          virtualDomain: expectedDomain(
            { acme: input.acme, isDefault: input.default, userDomain },
            certificate?.commonName ?? null,
          ),
        };
        if (!naming) {
          const [created] = await tx.insert(vhosts).values(values).returning();
          if (!created) throw new Error('Endpoint insert returned nothing');
          return created;
        }
        // A name free when looked for can be taken by a parallel request before this one commits: the
        // unique index then leaves the insert undone, and the next free name is tried.
        for (let attempt = 0; attempt < 5; attempt += 1) {
          const defaultName = await freeDefaultName(tx, naming);
          const [created] = await tx
            .insert(vhosts)
            .values({
              ...values,
              defaultName,
              virtualDomain: defaultEndpointDomain(defaultName, naming.defaultDomain),
            })
            .onConflictDoNothing({ target: vhosts.defaultName })
            .returning();
          if (created) return created;
        }
        throw new Error('No free default endpoint name after 5 attempts');
      });
    },

    /**
     * `PATCH /vhosts/:id`: keys left out keep their value; the console then posts `provision` to apply.
     * The body is read once the caller may change the endpoint (404 or 403 first).
     */
    async update(ref: CallerRef, id: number | null, body: unknown) {
      const { vhost } = await load(await access.caller(ref), id, 'vhost.update');
      const input = parseBody(updateEndpointSchema, body);
      if (BUSY.includes(vhost.status)) throw unprocessable(vhostMessages.busy(vhost.status));
      const conversion = sharedConversionProblem(vhost.shared, input.shared);
      if (conversion) throw unprocessable(conversion, { shared: [conversion] });
      const certificate =
        input.certificate === undefined
          ? null
          : input.certificate === null
            ? null
            : await certificateIn(input.certificate, vhost.environmentId);
      const certificateId = input.certificate === undefined ? vhost.certificateId : (certificate?.id ?? null);
      const merged = {
        shared: input.shared ?? vhost.shared,
        userDomain: input.user_domain ?? vhost.userDomain,
        tokenHeader: input.token_header === undefined ? vhost.tokenHeader : input.token_header,
      };
      const problem = problemsError(
        endpointSettingsProblems({
          type: vhost.type,
          acme: vhost.acme,
          default: vhost.isDefault,
          shared: merged.shared,
          userDomain: merged.userDomain,
          hasCertificate: certificateId !== null,
          tokenHeader: merged.tokenHeader,
          loadBalancingAlgorithm: input.load_balancing_algorithm_type ?? null,
        }),
      );
      if (problem) throw problem;
      let commonName: string | null = certificate?.commonName ?? null;
      if (input.certificate === undefined && vhost.certificateId) {
        const [current] = await db
          .select({ commonName: certificates.commonName })
          .from(certificates)
          .where(eq(certificates.id, vhost.certificateId));
        commonName = current?.commonName ?? null;
      }
      // A certificate was validated for the old domain only: a managed endpoint on a new one starts
      // over, so its next provision asks for the DNS records again (spec 2 §4 acmeStatus).
      const domainChanged = vhost.acme && merged.userDomain !== vhost.userDomain;
      const acmeReset = domainChanged
        ? { acmeStatus: '', acmeConfiguration: null, acmeDnsChallengeHost: '' }
        : {};
      const domainMoved = merged.userDomain.toLowerCase() !== vhost.userDomain.toLowerCase();
      return db.transaction(async (tx) => {
        if (domainMoved) await claimDomain(tx, vhost.environmentId, merged.userDomain, vhost.id);
        const [updated] = await tx
          .update(vhosts)
          .set({
            ipWhitelist: input.ip_whitelist,
            containerPort: input.container_port,
            containerPorts: input.container_ports,
            tokenHeader: input.token_header,
            loadBalancingAlgorithm: input.load_balancing_algorithm_type,
            shared: input.shared,
            certificateId,
            userDomain: input.user_domain,
            virtualDomain: vhost.isDefault
              ? vhost.virtualDomain
              : expectedDomain(
                  { acme: vhost.acme, isDefault: false, userDomain: merged.userDomain },
                  commonName,
                ) || vhost.virtualDomain,
            ...acmeReset,
            updatedAt: new Date(),
          })
          .where(eq(vhosts.id, vhost.id))
          .returning();
        return updated ?? vhost;
      });
    },

    /**
     * `DELETE /vhosts/:id`: an endpoint never provisioned goes at once; one with a load balancer is
     * deprovisioned by an operation (it disappears when that succeeds).
     */
    async remove(ref: CallerRef, id: number | null): Promise<OperationRow | null> {
      const caller = await access.caller(ref);
      const { vhost, environment } = await load(caller, id, 'vhost.delete');
      if (BUSY.includes(vhost.status)) throw unprocessable(vhostMessages.busy(vhost.status));
      if (vhost.externalHost !== null || !NEVER_PROVISIONED.includes(vhost.status)) {
        return deprovision(caller, vhost, environment);
      }
      // Rechecked in the statement: a provision that got its load balancer since the read above must
      // not lose the endpoint's row (and leak the load balancer).
      const deleted = await db
        .delete(vhosts)
        .where(
          and(
            eq(vhosts.id, vhost.id),
            inArray(vhosts.status, NEVER_PROVISIONED),
            isNull(vhosts.externalHost),
          ),
        )
        .returning({ id: vhosts.id });
      if (deleted.length > 0) return null;
      const [now] = await db.select().from(vhosts).where(eq(vhosts.id, vhost.id));
      if (!now) return null; // removed meanwhile: what the caller asked for
      if (BUSY.includes(now.status)) throw unprocessable(vhostMessages.busy(now.status));
      return deprovision(caller, now, environment);
    },

    /** Whose operations `GET /vhosts/:id/operations` lists, once the caller may see the endpoint. */
    async operationsScope(ref: CallerRef, id: number | null) {
      const caller = await access.caller(ref);
      const { vhost } = await load(caller, id, 'operation.read');
      return {
        vhost,
        caller,
        where: and(eq(operations.resourceType, 'vhost'), eq(operations.resourceId, vhost.id)),
      };
    },
  };
}
export type VhostsService = ReturnType<typeof createVhostsService>;
