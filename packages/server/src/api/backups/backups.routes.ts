import {
  backupCollection,
  backupResource,
  backupRetentionPolicyCollection,
  backupRetentionPolicyResource,
  backupRetentionPolicySchema,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Page } from '../../db/select-page.ts';
import { collection, listHref, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag } from '../../http/query.ts';
import {
  bodyCheckedByService,
  idRoute,
  pagedQuery,
  queryFlagValue,
  querySchema,
  route,
} from '../../http/route-schemas.ts';
import { type BackupRow, toBackupHal, toRetentionPolicyHal } from '../databases/databases.hal.ts';
import type { BackupsService } from './backups.service.ts';

const tags = ['Backups'];

export async function backupsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; backups: BackupsService },
) {
  const { urls, callers, backups } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const id = (value: string) => parseNumericId(value);
  // One page at most: page 1 of 5000 when no paging is asked for (contract §8.12).
  const pageOf = (query: unknown) => pagingFrom(query);
  const list = (selfUrl: string, page: Page<BackupRow>) =>
    collection(
      'backups',
      selfUrl,
      page.items.map((backup) => toBackupHal(backup, urls)),
      page.paging,
    );

  app.get(
    '/backups',
    route(
      tags,
      'Backups of every environment the caller may see, newest first',
      { 200: backupCollection },
      {
        querystring: pagedQuery,
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      return list(`${urls.api}/backups`, await backups.list(caller, pageOf(request.query)));
    },
  );

  app.get(
    '/accounts/:id/backups',
    idRoute(
      tags,
      "An environment's backups (`orphaned=true`: of databases that are gone)",
      { 200: backupCollection },
      {
        querystring: querySchema({ orphaned: queryFlagValue }, { paged: true }),
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const orphaned = queryFlag(request.query, 'orphaned');
      const page = await backups.listInEnvironment(
        caller,
        id(request.params.id),
        pageOf(request.query),
        orphaned,
      );
      return list(listHref(`${urls.api}/accounts/${request.params.id}/backups`, { orphaned }), page);
    },
  );

  app.get(
    '/databases/:id/backups',
    idRoute(
      tags,
      "A database's backups, newest first",
      { 200: backupCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const page = await backups.listForDatabase(caller, id(request.params.id), pageOf(request.query));
      return list(`${urls.api}/databases/${request.params.id}/backups`, page);
    },
  );

  app.get('/backups/:id', idRoute(tags, 'A backup', { 200: backupResource }), async (request) => {
    const caller = await callers.require(request);
    return toBackupHal(await backups.get(caller, id(request.params.id)), urls);
  });

  app.get(
    '/accounts/:id/backup_retention_policies',
    idRoute(
      tags,
      "An environment's backup retention policies, the one in force first",
      {
        200: backupRetentionPolicyCollection,
      },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const page = await backups.policies(caller, id(request.params.id), pageOf(request.query));
      return collection(
        'backup_retention_policies',
        `${urls.api}/accounts/${request.params.id}/backup_retention_policies`,
        page.items.map((policy) => toRetentionPolicyHal(policy, urls)),
        page.paging,
      );
    },
  );

  app.post(
    '/accounts/:id/backup_retention_policies',
    idRoute(
      tags,
      'Put a new backup retention policy in force',
      { 201: backupRetentionPolicyResource },
      {
        body: bodyCheckedByService(
          backupRetentionPolicySchema,
          'The new policy: counts of daily, monthly and yearly backups kept, PITR days, copies and final backups',
        ),
      },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await backups.createPolicy(caller, id(request.params.id), request.body);
      return reply.code(201).send(toRetentionPolicyHal(created, urls));
    },
  );
}
