import { isOwner } from '@berth/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { useActor } from '../../../lib/actor.tsx';
import { to } from '../../../lib/paths.ts';
import type { Stack } from '../../../resources/stacks/stack.hal.ts';
import {
  type StackNode,
  type StackNodeContainer,
  useSetNodeAvailability,
  useStackNodes,
} from '../api/use-stack-nodes.ts';
// The state badges' colours are the VPC peers' (success and error).
import './stack-connections.css';
import './stack-nodes.css';

/** Bytes as people read a machine's memory: GB with one decimal, MB below one GB. */
export function formatMemory(bytes: number): string {
  const gb = bytes / 1024 ** 3;
  if (gb >= 1) return `${Number.isInteger(gb) ? gb : gb.toFixed(1)} GB`;
  return `${Math.round(bytes / 1024 ** 2)} MB`;
}

const STATE_BADGES: Record<StackNode['state'], string> = {
  ready: 'badge badge-success',
  down: 'badge badge-error',
  disconnected: 'badge badge-error',
  unknown: 'badge badge-warning',
};

/** Where a container's name leads: its app's service, or its database. */
function containerHref(container: StackNodeContainer): string | null {
  if (container.appId && container.serviceId) return to.service(container.appId, container.serviceId);
  if (container.appId) return to.app(container.appId);
  if (container.databaseId) return to.database(container.databaseId);
  return null;
}

function Containers({ node }: { node: StackNode }) {
  if (node.containers.length === 0 && node.otherContainerCount === 0) return <>None</>;
  const others = node.otherContainerCount;
  return (
    <ul className="stack-node-containers">
      {node.containers.map((container) => {
        const href = containerHref(container);
        const owner = `${container.layer === 'app' ? 'App' : 'Database'} ${container.resourceHandle}, service ${container.serviceHandle}, environment ${container.environmentHandle}`;
        return (
          <li key={container.dockerName}>
            {href ? (
              <Link to={href} title={owner}>
                <code>{container.dockerName}</code>
              </Link>
            ) : (
              <code>{container.dockerName}</code>
            )}{' '}
            <span className="muted">
              {container.resourceHandle} · {container.serviceHandle}
              {container.state === 'running' ? '' : ` (${container.state})`}
            </span>
          </li>
        );
      })}
      {others > 0 ? (
        <li className="muted">
          {others} other container{others === 1 ? '' : 's'} (of resources you cannot read)
        </li>
      ) : null}
    </ul>
  );
}

/** A platform owner's Drain (asked twice: the node's containers move away) or Activate of one node. */
function NodeAvailabilityAction({ stack, node }: { stack: Stack; node: StackNode }) {
  const setAvailability = useSetNodeAvailability(stack.id);
  const run = async (availability: StackNode['availability']) => {
    try {
      await setAvailability.mutateAsync({ nodeId: node.id, availability });
      showToast(`Node ${node.hostname} is now ${availability === 'drain' ? 'drained' : 'active'}`);
    } catch (error) {
      showToast(error instanceof Error ? error.message : String(error), 'error');
      throw error;
    }
  };
  if (node.availability === 'active') {
    return (
      <ConfirmButton
        label={`Drain ${node.hostname}`}
        confirmLabel={`Confirm drain ${node.hostname}`}
        warning={`Drain node ${node.hostname}? Its containers move to the other nodes first.`}
        denial={null}
        onConfirm={() => run('drain')}
      >
        Drain
      </ConfirmButton>
    );
  }
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={`Activate ${node.hostname}`}
      loading={setAvailability.isPending}
      onClick={() => run('active').catch(() => {})}
    >
      Activate
    </Button>
  );
}

/** Issue 39 /stacks/{id}/nodes: the machines the stack runs on and the containers each runs. */
export function StackNodesTab({ stack }: { stack: Stack }) {
  const nodes = useStackNodes(stack.id);
  // Draining is a platform owner's (the server checks the same rule, for the stack's organization).
  const managesNodes = isOwner(useActor());
  let body: ReactNode;
  if (nodes.error) body = <Banner variant="error">Error: {nodes.error.message}</Banner>;
  else if (!nodes.data) body = <Skeleton label="Loading nodes" />;
  else if (nodes.data.length === 0) body = <EmptyState title="No nodes found" />;
  else
    body = (
      <StaticTable
        caption="Nodes"
        columns={[
          'Node',
          'Address',
          'Role',
          'State',
          'Availability',
          'Memory',
          'CPUs',
          'Containers',
          ...(managesNodes ? ['Actions'] : []),
        ]}
      >
        {nodes.data.map((node) => (
          <tr key={node.id}>
            <td>
              <code className="stack-node-host">{node.hostname}</code>
            </td>
            <td>{node.address || '-'}</td>
            <td>{node.leader ? `${node.role} (leader)` : node.role}</td>
            <td>
              <span className={STATE_BADGES[node.state]}>{node.state}</span>
            </td>
            <td>{node.availability}</td>
            <td>{formatMemory(node.memoryBytes)}</td>
            <td>{node.cpus}</td>
            <td>
              <Containers node={node} />
            </td>
            {managesNodes ? (
              <td>
                <NodeAvailabilityAction stack={stack} node={node} />
              </td>
            ) : null}
          </tr>
        ))}
      </StaticTable>
    );
  return (
    <section className="section-stack" aria-label="Nodes">
      {body}
    </section>
  );
}
