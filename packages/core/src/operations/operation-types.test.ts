import { describe, expect, it } from 'vitest';
import { SCOPES } from '../permissions/permissions.ts';
import {
  OPERATION_CATALOG,
  OPERATION_RESOURCE_TYPES,
  OPERATION_TYPE_NAMES,
  type OperationAction,
  operationRequest,
  operationResourceLabel,
  operationScope,
  operationsPath,
  operationTypeBody,
  operationTypeEntry,
  operationTypeMessages,
  operationTypesOf,
} from './operation-types.ts';

const entries = OPERATION_RESOURCE_TYPES.flatMap((resourceType) =>
  operationTypesOf(resourceType).map((type) => ({
    resourceType,
    type,
    entry: operationTypeEntry(resourceType, type),
  })),
);

/** The messages of a failed parse, as the server's 422 carries them. */
function problems(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  body: unknown,
) {
  const result = schema.safeParse(body) as { success: boolean; error?: { issues: { message: string }[] } };
  return result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);
}

const body = (resourceType: string, type: string) => {
  const entry = operationTypeEntry(resourceType, type);
  if (!entry) throw new Error(`${resourceType} ${type} is not in the catalog`);
  return entry.body;
};

describe('the operation catalog (contract §6)', () => {
  it('lists the types of apps, services, endpoints, databases, backups, drains and environments', () => {
    expect(OPERATION_RESOURCE_TYPES).toEqual([
      'app',
      'service',
      'vhost',
      'database',
      'backup',
      'log_drain',
      'metric_drain',
      'account',
    ]);
    expect(operationTypesOf('app')).toEqual([
      'deploy',
      'scan_code',
      'configure',
      'restart',
      'restart_recreate',
      'deprovision',
    ]);
    expect(operationTypesOf('service')).toEqual(['scale', 'restart', 'restart_recreate']);
    expect(operationTypesOf('vhost')).toEqual(['provision', 'renew', 'deprovision']);
    // contract §6 databases, backups and environments.
    expect(operationTypesOf('database')).toEqual([
      'provision',
      'restart',
      'restart_recreate',
      'reload',
      'scale',
      'backup',
      'replicate',
      'pitr_restore',
      'configure_backup_policy',
      'deprovision',
    ]);
    expect(operationTypesOf('backup')).toEqual(['restore', 'purge']);
    expect(operationTypesOf('account')).toEqual(['configure_backup_policy']);
    // contract §6 log drains: configure is their restart.
    expect(operationTypesOf('log_drain')).toEqual(['provision', 'configure', 'deprovision']);
    expect(operationTypesOf('metric_drain')).toEqual(['provision', 'deprovision']);
  });

  it.each(entries)(
    '$resourceType $type has a scope, an action named after it and a body schema',
    ({ resourceType, type, entry }) => {
      expect(entry).not.toBeNull();
      expect(SCOPES).toContain(entry?.scope);
      expect(entry?.action).toBe(`${resourceType}.${type}`);
      expect(entry?.body.safeParse).toBeTypeOf('function');
    },
  );

  it('types its action names', () => {
    const deploy: OperationAction = 'app.deploy';
    const renew: OperationAction = OPERATION_CATALOG.vhost.types.renew.action;
    // @ts-expect-error: a service scales, an app does not
    const wrong: OperationAction = 'app.scale';
    expect([deploy, renew, wrong]).toEqual(['app.deploy', 'vhost.renew', 'app.scale']);
  });

  it('gives every action once', () => {
    const actions = entries.map(({ entry }) => entry?.action);
    expect(new Set(actions).size).toBe(actions.length);
  });

  it('offers each type once to the activity filters', () => {
    expect(OPERATION_TYPE_NAMES).toEqual([
      'deploy',
      'scan_code',
      'configure',
      'restart',
      'restart_recreate',
      'deprovision',
      'scale',
      'provision',
      'renew',
      'reload',
      'backup',
      'replicate',
      'pitr_restore',
      'configure_backup_policy',
      'restore',
      'purge',
    ]);
  });

  it('knows nothing outside it, inherited keys included', () => {
    expect(operationTypeEntry('app', 'scale')).toBeNull();
    expect(operationTypeEntry('database', 'deploy')).toBeNull();
    expect(operationTypeEntry('log_drain', 'deploy')).toBeNull();
    expect(operationTypeEntry('metric_drain', 'configure')).toBeNull();
    expect(operationTypeEntry('app', 'toString')).toBeNull();
    expect(operationTypeEntry('constructor', 'deploy')).toBeNull();
  });
});

describe('operationScope (spec 1 §6)', () => {
  it.each([
    ['app', 'deploy', 'deploy'],
    ['app', 'configure', 'deploy'],
    ['app', 'scan_code', 'deploy'],
    ['app', 'restart', 'observability'],
    ['app', 'deprovision', 'destroy'],
    ['service', 'scale', 'observability'],
    ['service', 'restart_recreate', 'observability'],
    ['vhost', 'provision', 'deploy'],
    ['vhost', 'renew', 'deploy'],
    ['vhost', 'deprovision', 'destroy'],
    ['app', 'mystery', 'admin'],
    ['database', 'provision', 'deploy'],
    ['database', 'scale', 'observability'],
    ['database', 'backup', 'deploy'],
    ['database', 'configure_backup_policy', 'admin'],
    ['database', 'deprovision', 'destroy'],
    ['backup', 'restore', 'deploy'],
    ['backup', 'purge', 'destroy'],
    ['account', 'configure_backup_policy', 'admin'],
    ['log_drain', 'provision', 'observability'],
    ['log_drain', 'deprovision', 'observability'],
    ['metric_drain', 'provision', 'observability'],
    ['metric_drain', 'mystery', 'admin'],
  ])('%s %s needs %s', (resourceType, type, scope) => {
    expect(operationScope(resourceType, type)).toBe(scope);
  });
});

describe('request bodies and their messages', () => {
  it('needs a type, at most 100 characters', () => {
    expect(problems(operationTypeBody, {})).toEqual([operationTypeMessages.typeRequired]);
    expect(problems(operationTypeBody, { type: '' })).toEqual(['type must not be empty']);
    expect(problems(operationTypeBody, { type: 'x'.repeat(101) })).toEqual([
      'type must be at most 100 characters',
    ]);
    expect(problems(operationTypeBody, { type: 'deploy', git_ref: 'main' })).toEqual([]);
  });

  it('names the resource in a refusal of its type', () => {
    expect(operationTypeMessages.unsupported('scale', OPERATION_CATALOG.app.noun)).toBe(
      'Operation type "scale" is not supported for an app',
    );
    expect(operationTypeMessages.unsupported('deploy', OPERATION_CATALOG.service.noun)).toBe(
      'Operation type "deploy" is not supported for a service',
    );
    expect(operationTypeMessages.unsupported('scale', OPERATION_CATALOG.vhost.noun)).toBe(
      'Operation type "scale" is not supported for an endpoint',
    );
  });

  it('deploy takes an optional git ref or image, trimmed and bounded', () => {
    expect(body('app', 'deploy').parse({ type: 'deploy', git_ref: ' main ' })).toMatchObject({
      git_ref: 'main',
    });
    expect(problems(body('app', 'deploy'), {})).toEqual([]);
    expect(problems(body('app', 'deploy'), { git_ref: 'x'.repeat(256) })).toEqual([
      'git_ref must be at most 255 characters',
    ]);
    expect(problems(body('app', 'deploy'), { docker_image: 'x'.repeat(501) })).toEqual([
      'docker_image must be at most 500 characters',
    ]);
  });

  it('scan_code needs a git ref', () => {
    expect(problems(body('app', 'scan_code'), {})).toEqual(['git_ref must not be empty']);
    expect(problems(body('app', 'scan_code'), { git_ref: '  ' })).toEqual(['git_ref must not be empty']);
    expect(problems(body('app', 'scan_code'), { git_ref: 'main' })).toEqual([]);
  });

  it('configure needs an object of variables with valid names', () => {
    expect(problems(body('app', 'configure'), {})).toEqual(['env must be an object of variables']);
    expect(problems(body('app', 'configure'), { env: 'A=1' })).toEqual([
      'env must be an object of variables',
    ]);
    expect(problems(body('app', 'configure'), { env: { 'bad-key': 'x', A: '', B: null } })).toEqual([
      'bad-key does not match regex: /[a-zA-Z_]+[a-zA-Z0-9_]*/',
    ]);
  });

  it('scale takes whole numbers and a bounded profile; the redundant id is ignored', () => {
    expect(problems(body('service', 'scale'), { id: 7, container_count: 2 })).toEqual([]);
    expect(problems(body('service', 'scale'), { container_count: 1.5 })).toHaveLength(1);
    expect(problems(body('service', 'scale'), { instance_profile: 'x'.repeat(101) })).toEqual([
      'instance_profile must be at most 100 characters',
    ]);
  });

  it('endpoint operations take no other keys', () => {
    for (const type of operationTypesOf('vhost'))
      expect(problems(body('vhost', type), { id: '1' })).toEqual([]);
  });
});

describe('operationsPath', () => {
  it('is the resource collection of contract §6', () => {
    expect(operationsPath('app', '12')).toBe('/apps/12/operations');
    expect(operationsPath('service', 3)).toBe('/services/3/operations');
    expect(operationsPath('vhost', 'a/b')).toBe('/vhosts/a%2Fb/operations');
  });
});

describe('operationRequest', () => {
  it('puts the type first and keeps the keys as given', () => {
    const request = operationRequest('app', 'deploy', { git_ref: 'main' });
    expect(request).toEqual({ type: 'deploy', git_ref: 'main' });
    expect(Object.keys(request)).toEqual(['type', 'git_ref']);
    expect(operationRequest('vhost', 'renew')).toEqual({ type: 'renew' });
    expect(operationRequest('service', 'scale', { id: '3', container_count: 2 })).toEqual({
      type: 'scale',
      id: '3',
      container_count: 2,
    });
  });
});

describe('operationResourceLabel (issue 20: one word for each thing)', () => {
  it('names resource types as people do, and leaves unknown ones as they are', () => {
    expect(operationResourceLabel('vhost')).toBe('Endpoint');
    expect(operationResourceLabel('account')).toBe('Environment');
    expect(operationResourceLabel('log_drain')).toBe('Log drain');
    expect(operationResourceLabel('app')).toBe('App');
    expect(operationResourceLabel('gadget')).toBe('gadget');
  });
});
