import type { OperationResource } from '@berth/core';
import { fromOperationResource, type Operation } from '../src/resources/operations/operation.hal.ts';
import { TEST_CONFIG } from './fixtures.ts';

// A server answer for an operation, typed by core's wire shape: a fixture that drifts from what the
// server sends fails the type check.

const RESOURCE_PATHS: Record<string, string> = { app: 'apps', service: 'services', vhost: 'vhosts' };

export type OperationFixture = Partial<Omit<OperationResource, '_links'>> & {
  _links?: Partial<OperationResource['_links']>;
};

/** contract §4.3 operation; by default a queued deploy of app 1 with nothing optional set. */
export function operationResourceFixture(fields: OperationFixture = {}): OperationResource {
  const api = TEST_CONFIG.apiUrl;
  const id = fields.id ?? '1';
  const resourceType = fields.resource_type ?? 'app';
  const resourceId = fields.resource_id ?? '1';
  const createdAt = fields.created_at ?? '2025-01-15T10:00:00.000Z';
  const resourcePath = RESOURCE_PATHS[resourceType] ?? `${resourceType}s`;
  return {
    _type: 'operation',
    type: 'deploy',
    status: 'queued',
    git_ref: null,
    docker_ref: null,
    container_count: null,
    container_size: null,
    disk_size: null,
    instance_profile: null,
    provisioned_iops: 0,
    ebs_volume_type: '',
    destination_region: '',
    encrypted_env_json_new: '',
    encrypted_stack_settings: '',
    env: null,
    note: '',
    user_name: '',
    user_email: '',
    automated: false,
    cancelled: false,
    aborted: false,
    immediate: false,
    resource_handle: '',
    previous_container_count: null,
    previous_container_size: null,
    previous_instance_profile: null,
    updated_at: createdAt,
    ...fields,
    id,
    resource_type: resourceType,
    resource_id: resourceId,
    created_at: createdAt,
    _links: {
      self: { href: `${api}/operations/${id}` },
      resource: { href: `${api}/${resourcePath}/${resourceId}` },
      logs: { href: `${api}/operations/${id}/logs` },
      ...fields._links,
    },
  };
}

/** The console's reading of `operationResourceFixture()` with camelCase overrides (tests of the UI). */
export function operationFixture(fields: Partial<Operation> = {}): Operation {
  return { ...fromOperationResource(operationResourceFixture()), ...fields };
}
