import {
  noContent,
  type SshKeyResource,
  sshKeyCollection,
  sshKeyInput,
  sshKeyMessages,
  sshKeyResource,
} from '@berth/core';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { sshKeys } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound, unprocessable } from '../../http/errors.ts';
import { collection, iso, links } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute } from '../../http/route-schemas.ts';
import type { SecurityNotices } from '../security-notices.ts';
import type { Caller } from '../tokens/token.service.ts';
import { parseSshPublicKey } from './ssh-key.parse.ts';

type SshKeyRow = typeof sshKeys.$inferSelect;

export function toSshKeyHal(row: SshKeyRow, urls: FamilyUrls): SshKeyResource {
  return {
    id: row.id,
    _type: 'ssh_key' as const,
    name: row.name,
    ssh_public_key: row.publicKey,
    md5_fingerprint: row.md5Fingerprint,
    sha256_fingerprint: row.sha256Fingerprint,
    public_key_fingerprint: row.md5Fingerprint,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.auth}/ssh_keys/${row.id}`,
      user: `${urls.auth}/users/${row.userId}`,
    }),
  };
}

export interface SshKeysDeps {
  db: Db;
  urls: FamilyUrls;
  guard: AuthGuard;
  /** The user hears of each key added or removed. */
  notices: SecurityNotices;
}

/** SSH keys (contract §4.1 ssh_key, §5.2): each user sees and changes only their own. */
export async function sshKeysRoutes(fastify: FastifyInstance, deps: SshKeysDeps) {
  const { db, urls, guard, notices } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['SSH keys'];

  /** Another user's keys are not there for the caller: 404, as for their other resources. */
  function ownUserId(request: { params: { id: string } }, caller: Caller): string {
    if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
    return caller.user.id;
  }

  app.get(
    '/users/:id/ssh_keys',
    idRoute(tags, 'The caller’s SSH public keys', { 200: sshKeyCollection }),
    async (request) => {
      const caller = await guard.requireCaller(request);
      const userId = ownUserId(request, caller);
      const rows = await db
        .select()
        .from(sshKeys)
        .where(eq(sshKeys.userId, userId))
        .orderBy(asc(sshKeys.createdAt), asc(sshKeys.id));
      return collection(
        'ssh_keys',
        `${urls.auth}/users/${userId}/ssh_keys`,
        rows.map((row) => toSshKeyHal(row, urls)),
      );
    },
  );

  // Adding a key grants git and SSH access: it needs an elevated token (contract §3.6).
  const add = {
    config: { caller: { elevated: true } },
    ...idRoute(
      tags,
      'Add an SSH public key (RSA ≥ 2048 bits, ECDSA or ed25519)',
      { 201: sshKeyResource },
      {
        body: sshKeyInput,
      },
    ),
  };
  app.post('/users/:id/ssh_keys', add, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const userId = ownUserId(request, caller);
    const parsed = await parseSshPublicKey(request.body.ssh_public_key);
    const [existing] = await db
      .select()
      .from(sshKeys)
      .where(and(eq(sshKeys.userId, userId), eq(sshKeys.sha256Fingerprint, parsed.sha256Fingerprint)));
    if (existing) throw unprocessable(sshKeyMessages.duplicate(existing.name));
    const row = await db
      .insert(sshKeys)
      .values({ userId, name: request.body.name, ...parsed })
      .returning()
      .then(([inserted]) => inserted)
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw unprocessable(sshKeyMessages.duplicate(request.body.name));
        throw error;
      });
    if (!row) throw new Error('SSH key insert returned nothing');
    await notices.tell(caller.user, {
      kind: 'ssh-key-added',
      name: row.name,
      fingerprint: row.sha256Fingerprint,
    });
    return reply.code(201).send(toSshKeyHal(row, urls));
  });

  app.delete(
    '/ssh_keys/:id',
    // Taking a key away changes who may push and open sessions, as adding one does: elevated too
    // (spec 1 §7 "DELETE /ssh_keys/{id} (elevated)").
    {
      config: { caller: { elevated: true } },
      ...idRoute(tags, 'Delete one of the caller’s SSH keys (elevated)', { 204: noContent }),
    },
    async (request, reply) => {
      const caller = await guard.requireCaller(request);
      if (!isUuid(request.params.id)) throw notFound('SSH key');
      const [deleted] = await db
        .delete(sshKeys)
        .where(and(eq(sshKeys.id, request.params.id), eq(sshKeys.userId, caller.user.id)))
        .returning({ name: sshKeys.name, fingerprint: sshKeys.sha256Fingerprint });
      if (!deleted) throw notFound('SSH key');
      await notices.tell(caller.user, { kind: 'ssh-key-removed', ...deleted });
      return reply.code(204).send(null);
    },
  );
}
