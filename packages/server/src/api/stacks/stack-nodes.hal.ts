import type { StackNodeResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { links } from '../../http/hal.ts';
import type { StackNode } from './stack-nodes.service.ts';
import type { StackRow } from './stacks.hal.ts';

export function toStackNodeHal(stack: StackRow, node: StackNode, urls: FamilyUrls): StackNodeResource {
  return {
    id: node.id,
    _type: 'stack_node' as const,
    hostname: node.hostname,
    address: node.address,
    role: node.role,
    leader: node.leader,
    state: node.state,
    availability: node.availability,
    memory_bytes: node.memoryBytes,
    cpus: node.cpus,
    engine_version: node.engineVersion,
    containers: node.containers.map((container) => ({
      docker_name: container.dockerName,
      state: container.state,
      layer: container.layer,
      resource_handle: container.resourceHandle,
      service_handle: container.serviceHandle,
      environment_handle: container.environmentHandle,
      _links: links({
        service: `${urls.api}/services/${container.serviceId}`,
        account: `${urls.api}/accounts/${container.environmentId}`,
        app: container.appId !== null ? `${urls.api}/apps/${container.appId}` : null,
        database:
          container.appId === null && container.databaseId !== null
            ? `${urls.api}/databases/${container.databaseId}`
            : null,
      }),
    })),
    other_container_count: node.otherContainerCount,
    _links: links({ stack: `${urls.api}/stacks/${stack.id}` }),
  };
}
