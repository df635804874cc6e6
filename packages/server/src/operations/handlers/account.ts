import type { OperationBody } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { retentionPolicyInForce } from '../../api/backups/retention-policy.ts';
import { backupRetentionPolicies, databases, environments } from '../../db/schema.ts';
import type { Handler, OperationResource } from '../handler.ts';

// Operations on an environment (contract §5.6 `POST /accounts/:id/operations`): the window of
// point-in-time recovery its databases keep.

type EnvironmentTarget = typeof environments.$inferSelect & { environmentId: number };

const configureBackupPolicy: Handler<
  EnvironmentTarget,
  OperationBody<'account', 'configure_backup_policy'>
> = {
  accept: (body) => ({ parameters: { pitrDays: body.pitr_days } }),
  async run(ctx) {
    const pitrDays = Number(ctx.op.parameters?.pitrDays ?? 0);
    const environmentId = ctx.op.resourceId;
    const current = await retentionPolicyInForce(ctx.db, environmentId);
    await ctx.log(`Keeping ${pitrDays} day(s) of point-in-time recovery in ${ctx.op.resourceHandle}`);
    if (pitrDays === 0) await ctx.log('Point-in-time recovery backups of its databases are turned off');
    return {
      async succeed(tx) {
        // A new policy in force, the rest of it as it was.
        await tx.insert(backupRetentionPolicies).values({
          environmentId,
          daily: current.daily,
          monthly: current.monthly,
          yearly: current.yearly,
          makeCopy: current.makeCopy,
          keepFinal: current.keepFinal,
          pitrDays,
        });
        if (pitrDays === 0) {
          await tx
            .update(databases)
            .set({ enablePitr: false, updatedAt: new Date() })
            .where(and(eq(databases.environmentId, environmentId), eq(databases.enablePitr, true)));
        }
      },
    };
  },
};

export const accountOperations: OperationResource<'account', EnvironmentTarget> = {
  notFound: 'Environment',
  readAction: 'environment.read',
  load: async (db, id) => {
    const [environment] = await db.select().from(environments).where(eq(environments.id, id));
    return environment ? { ...environment, environmentId: environment.id } : undefined;
  },
  handle: (environment) => environment.handle,
  handlers: { configure_backup_policy: configureBackupPolicy },
};
