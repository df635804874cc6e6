import { z } from 'zod';
import { envKeyProblems } from '../configuration/env.ts';
import type { Scope } from '../permissions/permissions.ts';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

// The operation types each resource takes (contract §6), written once: the scope each needs (spec 1 §6),
// its action name, the keys of its request body besides `type`, and when the activity list offers Re-run
// (spec 3 §2). The server validates requests with these schemas and the console builds bodies from them.
// A new operation type is declared here and given one handler on the server.

export const operationTypeMessages = {
  typeRequired: 'type must not be empty',
  unsupported: (type: string, noun: string) => `Operation type "${type}" is not supported for ${noun}`,
  gitRefRequired: 'git_ref must not be empty',
  envObject: 'env must be an object of variables',
  scaleNeedsChange: 'A scale needs container_count, container_size or instance_profile',
} as const;

/** Every operation request names its type; the rest of the body depends on it. */
export const operationTypeBody = z.looseObject({
  type: boundedString(MAX_LENGTH.keyword, {
    required: operationTypeMessages.typeRequired,
    label: 'type',
  }).min(1, operationTypeMessages.typeRequired),
});

/**
 * When a finished operation may be posted again from the activity list: `failed` after a failure,
 * `always` also after success, `never` when the flow asks for a confirmation first.
 */
export type OperationRerun = 'failed' | 'always' | 'never';

export interface OperationTypeEntry {
  /** The environment scope the operation needs (spec 1 §6). */
  scope: Scope;
  /** `<resource>.<type>`: the name the action catalog knows it by. */
  action: string;
  /** The keys besides `type` (unknown keys are ignored, as the contract's console sends some). */
  body: z.ZodType;
  rerun: OperationRerun;
}

// A ref or an image is one line: a control, line-break or invisible character is refused (issue 15),
// before trimming, so a trailing newline is not quietly dropped either.
const gitRef = boundedString(255, { label: 'git_ref' }).superRefine(plainText('git_ref')).trim();
const dockerImage = boundedString(500, { label: 'docker_image' })
  .superRefine(plainText('docker_image'))
  .trim();
/** contract §6: `restart` and `scale` repeat the resource's id; the path names it, so any value is ignored. */
const redundantId = z.unknown().optional();

const deployBody = z.looseObject({ git_ref: gitRef.optional(), docker_image: dockerImage.optional() });
const scanCodeBody = z
  .looseObject({ git_ref: gitRef.optional(), docker_image: dockerImage.optional() })
  .superRefine((body, ctx) => {
    if (!body.git_ref) {
      ctx.addIssue({ code: 'custom', message: operationTypeMessages.gitRefRequired, path: ['git_ref'] });
    }
  });
const configureBody = z
  .looseObject({
    // contract §6: a "" value (or null) removes the variable.
    env: z.record(
      boundedString(MAX_LENGTH.envKey, { tooLong: tooLongMessage('A variable name', MAX_LENGTH.envKey) }),
      z.union([
        boundedString(MAX_LENGTH.envValue, {
          tooLong: tooLongMessage('A variable value', MAX_LENGTH.envValue),
        }),
        z.null(),
      ]),
      { error: operationTypeMessages.envObject },
    ),
  })
  .superRefine((body, ctx) => {
    for (const message of envKeyProblems(Object.keys(body.env))) {
      ctx.addIssue({ code: 'custom', message, path: ['env'] });
    }
  });
const restartBody = z.looseObject({ id: redundantId });
const noKeys = z.looseObject({});
const scaleBody = z.looseObject({
  id: redundantId,
  container_count: z.number().int().optional(),
  /** MB. */
  container_size: z.number().int().optional(),
  instance_profile: boundedString(MAX_LENGTH.keyword, { label: 'instance_profile' }).optional(),
});

// Databases (contract §6): sizes in MB, disks in GB; the server's defaults (spec 2 §9) fill what is absent.
const sizeMb = z.number({ error: 'container_size must be a number of MB' }).int().positive();
const diskGb = z.number({ error: 'disk_size must be a number of GB' }).int().min(0);
const iops = z.number({ error: 'provisioned_iops must be a number' }).int().min(0);
const instanceProfile = boundedString(MAX_LENGTH.keyword, { label: 'instance_profile' });
const newHandle = boundedString(MAX_LENGTH.text, { label: 'handle' });
const recoveryTargetType = z.enum(['time', 'latest'], {
  error: 'recovery_target_type must be time or latest',
});
const recoveryTarget = boundedString(MAX_LENGTH.keyword, { label: 'recovery_target' });
const databaseProvisionBody = z.looseObject({
  container_size: sizeMb.optional(),
  disk_size: diskGb.optional(),
  provisioned_iops: iops.optional(),
  instance_profile: instanceProfile.optional(),
  recovery_target_type: recoveryTargetType.optional(),
  recovery_target: recoveryTarget.nullish(),
});
/** A restart may also resize (contract §6): `disk_size` 0 means unchanged. */
const databaseRestartBody = z.looseObject({
  id: redundantId,
  container_size: sizeMb.optional(),
  disk_size: diskGb.optional(),
  provisioned_iops: iops.optional(),
  instance_profile: instanceProfile.optional(),
});
const databaseRecreateBody = z.looseObject({ id: redundantId, instance_profile: instanceProfile.optional() });
const databaseScaleBody = databaseRestartBody;
const replicateBody = z.looseObject({
  handle: newHandle,
  container_size: sizeMb.optional(),
  disk_size: diskGb.optional(),
});
const pitrRestoreBody = z.looseObject({
  handle: newHandle,
  recovery_target_type: recoveryTargetType.default('latest'),
  recovery_target: recoveryTarget.nullish(),
});
const databaseBackupPolicyBody = z.looseObject({
  enable_pitr: z.boolean({ error: 'enable_pitr must be true or false' }),
});
const restoreBody = z.looseObject({
  handle: newHandle,
  destination_account_id: z
    .union([boundedString(MAX_LENGTH.reference, { label: 'destination_account_id' }), z.number().int()])
    .transform(String)
    .optional(),
  disk_size: diskGb.optional(),
  // contract §8.7: the console sends camelCase here; the snake_case twin is accepted too.
  containerSize: sizeMb.optional(),
  container_size: sizeMb.optional(),
});
const environmentBackupPolicyBody = z.looseObject({
  pitr_days: z
    .number({ error: 'pitr_days must be a whole number from 0 to 14' })
    .int({ error: 'pitr_days must be a whole number from 0 to 14' })
    .min(0, { error: 'pitr_days must be a whole number from 0 to 14' })
    .max(14, { error: 'pitr_days must be a whole number from 0 to 14' }),
});

/**
 * Per resource type: the noun its refusals use, the collection its operations are posted under
 * (`POST /<path>/:id/operations`) and its operation types.
 */
export const OPERATION_CATALOG = {
  app: {
    noun: 'an app',
    path: 'apps',
    types: {
      deploy: { scope: 'deploy', action: 'app.deploy', body: deployBody, rerun: 'always' },
      scan_code: { scope: 'deploy', action: 'app.scan_code', body: scanCodeBody, rerun: 'failed' },
      configure: { scope: 'deploy', action: 'app.configure', body: configureBody, rerun: 'always' },
      restart: { scope: 'observability', action: 'app.restart', body: restartBody, rerun: 'failed' },
      restart_recreate: {
        scope: 'observability',
        action: 'app.restart_recreate',
        body: restartBody,
        rerun: 'failed',
      },
      deprovision: { scope: 'destroy', action: 'app.deprovision', body: noKeys, rerun: 'failed' },
    },
  },
  service: {
    noun: 'a service',
    path: 'services',
    types: {
      scale: { scope: 'observability', action: 'service.scale', body: scaleBody, rerun: 'failed' },
      restart: { scope: 'observability', action: 'service.restart', body: restartBody, rerun: 'failed' },
      restart_recreate: {
        scope: 'observability',
        action: 'service.restart_recreate',
        body: restartBody,
        rerun: 'failed',
      },
    },
  },
  vhost: {
    noun: 'an endpoint',
    path: 'vhosts',
    types: {
      provision: { scope: 'deploy', action: 'vhost.provision', body: noKeys, rerun: 'failed' },
      // Renewing a managed certificate re-applies the endpoint's setup, like a provision.
      renew: { scope: 'deploy', action: 'vhost.renew', body: noKeys, rerun: 'failed' },
      // Deprovisioning asks for the hostname to be typed first (spec 2 §2): no one-click Re-run.
      deprovision: { scope: 'destroy', action: 'vhost.deprovision', body: noKeys, rerun: 'never' },
    },
  },
  database: {
    noun: 'a database',
    path: 'databases',
    types: {
      provision: {
        scope: 'deploy',
        action: 'database.provision',
        body: databaseProvisionBody,
        rerun: 'failed',
      },
      restart: {
        scope: 'observability',
        action: 'database.restart',
        body: databaseRestartBody,
        rerun: 'failed',
      },
      // Restart onto new hardware with a disk backup and restore: acknowledged first (spec 2 §5).
      restart_recreate: {
        scope: 'observability',
        action: 'database.restart_recreate',
        body: databaseRecreateBody,
        rerun: 'never',
      },
      reload: { scope: 'observability', action: 'database.reload', body: restartBody, rerun: 'failed' },
      scale: { scope: 'observability', action: 'database.scale', body: databaseScaleBody, rerun: 'failed' },
      backup: { scope: 'deploy', action: 'database.backup', body: noKeys, rerun: 'always' },
      // The new database's handle is not on the operation: a replica is asked for again from the CLI.
      replicate: { scope: 'deploy', action: 'database.replicate', body: replicateBody, rerun: 'never' },
      pitr_restore: {
        scope: 'deploy',
        action: 'database.pitr_restore',
        body: pitrRestoreBody,
        rerun: 'never',
      },
      configure_backup_policy: {
        scope: 'admin',
        action: 'database.configure_backup_policy',
        body: databaseBackupPolicyBody,
        // The switch asked for lives in the settings page, not on the operation.
        rerun: 'never',
      },
      // Deprovisioning asks for the handle to be typed first (spec 2 §5).
      deprovision: { scope: 'destroy', action: 'database.deprovision', body: noKeys, rerun: 'never' },
    },
  },
  backup: {
    noun: 'a backup',
    path: 'backups',
    types: {
      restore: { scope: 'deploy', action: 'backup.restore', body: restoreBody, rerun: 'never' },
      // Deleting a backup is destroying data: confirmed first, never one click.
      purge: { scope: 'destroy', action: 'backup.purge', body: noKeys, rerun: 'never' },
    },
  },
  // spec 1 §6: drains are the Ops (observability) scope's; configure restarts a log drain's shipping.
  log_drain: {
    noun: 'a log drain',
    path: 'log_drains',
    types: {
      provision: { scope: 'observability', action: 'log_drain.provision', body: noKeys, rerun: 'failed' },
      configure: { scope: 'observability', action: 'log_drain.configure', body: noKeys, rerun: 'failed' },
      deprovision: { scope: 'observability', action: 'log_drain.deprovision', body: noKeys, rerun: 'never' },
    },
  },
  metric_drain: {
    noun: 'a metric drain',
    path: 'metric_drains',
    types: {
      provision: { scope: 'observability', action: 'metric_drain.provision', body: noKeys, rerun: 'failed' },
      deprovision: {
        scope: 'observability',
        action: 'metric_drain.deprovision',
        body: noKeys,
        rerun: 'never',
      },
    },
  },
  account: {
    noun: 'an environment',
    path: 'accounts',
    types: {
      configure_backup_policy: {
        scope: 'admin',
        action: 'account.configure_backup_policy',
        body: environmentBackupPolicyBody,
        rerun: 'never',
      },
    },
  },
} as const satisfies Record<
  string,
  { noun: string; path: string; types: Record<string, OperationTypeEntry> }
>;

type Catalog = typeof OPERATION_CATALOG;
export type OperationResourceType = keyof Catalog;
export type OperationTypeOf<R extends OperationResourceType> = keyof Catalog[R]['types'] & string;
/** Every action name the catalog declares (`app.deploy`, `vhost.renew`, …). */
export type OperationAction = {
  [R in OperationResourceType]: { [T in OperationTypeOf<R>]: Catalog[R]['types'][T] }[OperationTypeOf<R>];
}[OperationResourceType]['action'];
/** The keys besides `type` of a request, as sent. */
export type OperationBodyInput<R extends OperationResourceType, T extends OperationTypeOf<R>> = z.input<
  Catalog[R]['types'][T] extends { body: infer B extends z.ZodType } ? B : never
>;
/** The same keys once validated. */
export type OperationBody<R extends OperationResourceType, T extends OperationTypeOf<R>> = z.output<
  Catalog[R]['types'][T] extends { body: infer B extends z.ZodType } ? B : never
>;
/** A whole request body: the type and its keys. */
export type OperationRequest<R extends OperationResourceType, T extends OperationTypeOf<R>> = {
  type: T;
} & OperationBodyInput<R, T>;

export const OPERATION_RESOURCE_TYPES = Object.keys(OPERATION_CATALOG) as OperationResourceType[];

export function isOperationResourceType(value: string): value is OperationResourceType {
  return Object.hasOwn(OPERATION_CATALOG, value);
}

/** The types a resource takes, in catalog order. */
export function operationTypesOf<R extends OperationResourceType>(resourceType: R): OperationTypeOf<R>[] {
  return Object.keys(OPERATION_CATALOG[resourceType].types) as OperationTypeOf<R>[];
}

/**
 * Types Berth records without anyone posting them, in no catalog (so never queued or re-run): a Swarm
 * node that stopped answering, recorded on each app it ran (README "Resources Berth adds to the contract").
 */
export const RECORDED_OPERATION_TYPES = ['node_lost'] as const;

/** Every type some resource takes, once each: what an activity list can be filtered by. */
export const OPERATION_TYPE_NAMES: readonly string[] = [
  ...new Set(OPERATION_RESOURCE_TYPES.flatMap((resourceType) => operationTypesOf(resourceType))),
];

/** The catalog's entry of a type on a resource, or null when that resource does not take it. */
export function operationTypeEntry(resourceType: string, type: string): OperationTypeEntry | null {
  if (!isOperationResourceType(resourceType)) return null;
  const types: Record<string, OperationTypeEntry> = OPERATION_CATALOG[resourceType].types;
  return Object.hasOwn(types, type) ? (types[type] ?? null) : null;
}

/** spec 1 §6: the environment scope an operation on a resource needs (admin when not in the catalog). */
export function operationScope(resourceType: string, type: string): Scope {
  return operationTypeEntry(resourceType, type)?.scope ?? 'admin';
}

/** Where operations on a resource are posted (contract §6), relative to the api family. */
export function operationsPath(resourceType: OperationResourceType, id: string | number): string {
  return `/${OPERATION_CATALOG[resourceType].path}/${encodeURIComponent(String(id))}/operations`;
}

/** The body the console posts for an operation: the type and its keys, checked by the compiler. */
export function operationRequest<R extends OperationResourceType, T extends OperationTypeOf<R>>(
  _resourceType: R,
  type: T,
  // The keys may be left out only when none is required.
  ...keys: Partial<OperationBodyInput<R, T>> extends OperationBodyInput<R, T>
    ? [OperationBodyInput<R, T>?]
    : [OperationBodyInput<R, T>]
): OperationRequest<R, T> {
  return { type, ...(keys[0] as object | undefined) } as OperationRequest<R, T>;
}

/**
 * A resource type as people name it ("Endpoint" for `vhost`, "Environment" for `account`): the
 * catalog's noun without its article, for filters and labels (issue 20: one word for each thing).
 */
export function operationResourceLabel(resourceType: string): string {
  const entry = (OPERATION_CATALOG as Record<string, { noun: string } | undefined>)[resourceType];
  if (!entry) return resourceType;
  const noun = entry.noun.replace(/^an? /, '');
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}
