import { MAX_PAGE_SIZE, type StackNodeResource } from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { itemsByNextLink } from '../../../lib/all-pages.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { linkId } from '../../../lib/hal.ts';
import { stackKeys } from '../../../resources/stacks/stack-keys.ts';

/** A container on a node, of an app's or a database's service the caller may read. */
export interface StackNodeContainer {
  dockerName: string;
  state: string;
  layer: 'app' | 'database';
  resourceHandle: string;
  serviceHandle: string;
  environmentHandle: string;
  appId: string | null;
  serviceId: string | null;
  databaseId: string | null;
}

/** Issue 39: a machine of the stack as the Nodes tab shows it. */
export interface StackNode {
  id: string;
  hostname: string;
  address: string;
  role: StackNodeResource['role'];
  leader: boolean;
  state: StackNodeResource['state'];
  availability: StackNodeResource['availability'];
  memoryBytes: number;
  cpus: number;
  engineVersion: string | null;
  containers: StackNodeContainer[];
  otherContainerCount: number;
}

/** How often the tab asks again: a node that goes down, and tasks that move, show within it. */
const NODES_REFRESH_MS = 15_000;

/** GET /stacks/:id/nodes, every page, following `_links.next` (contract §1.4). */
export function useStackNodes(stackId: string) {
  return useQuery({
    queryKey: [...stackKeys.detail(stackId), 'nodes'] as const,
    queryFn: async ({ signal }) =>
      (
        await itemsByNextLink<StackNodeResource>(
          'api',
          `/stacks/${encodeURIComponent(stackId)}/nodes?per_page=${MAX_PAGE_SIZE}`,
          'nodes',
          signal,
        )
      ).map(
        (node): StackNode => ({
          id: node.id,
          hostname: node.hostname,
          address: node.address,
          role: node.role,
          leader: node.leader,
          state: node.state,
          availability: node.availability,
          memoryBytes: node.memory_bytes,
          cpus: node.cpus,
          engineVersion: node.engine_version,
          containers: node.containers.map((container) => ({
            dockerName: container.docker_name,
            state: container.state,
            layer: container.layer,
            resourceHandle: container.resource_handle,
            serviceHandle: container.service_handle,
            environmentHandle: container.environment_handle,
            appId: linkId(container, 'app'),
            serviceId: linkId(container, 'service'),
            databaseId: linkId(container, 'database'),
          })),
          otherContainerCount: node.other_container_count,
        }),
      ),
    refetchInterval: NODES_REFRESH_MS,
  });
}

/** PUT /stacks/:id/nodes/:node_id (platform owners): drain a node, its containers moving first, or activate it. */
export function useSetNodeAvailability(stackId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ nodeId, availability }: { nodeId: string; availability: StackNode['availability'] }) =>
      apiRequest<StackNodeResource>(
        'api',
        `/stacks/${encodeURIComponent(stackId)}/nodes/${encodeURIComponent(nodeId)}`,
        { method: 'PUT', body: { availability } },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...stackKeys.detail(stackId), 'nodes'] }),
  });
}
