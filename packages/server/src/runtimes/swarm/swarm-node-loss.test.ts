import { describe, expect, it } from 'vitest';
import type { SwarmNodeChange } from './swarm-events.ts';
import { containersOnNode, createNodeLossTracker, slotsSwarmKeeps } from './swarm-node-loss.ts';

const at = new Date('2026-11-30T02:00:00Z');
const node = (nodeId: string, fields: Partial<SwarmNodeChange> = {}): SwarmNodeChange => ({
  kind: 'node',
  action: 'update',
  nodeId,
  hostname: nodeId,
  at,
  ...fields,
});
const down = (nodeId: string) => node(nodeId, { state: { from: 'ready', to: 'down' } });

describe('createNodeLossTracker', () => {
  it('starts a loss at the first down of a node, not at its repeats', () => {
    const tracker = createNodeLossTracker();
    expect(tracker.startsLoss(down('n3'))).toBe(true);
    expect(tracker.startsLoss(down('n3'))).toBe(false);
    expect(tracker.startsLoss(node('n3', { availability: { from: 'active', to: 'drain' } }))).toBe(false);
    // Another node's loss is its own.
    expect(tracker.startsLoss(down('n2'))).toBe(true);
  });

  it('starts a new loss once the node was ready again or removed', () => {
    const tracker = createNodeLossTracker();
    expect(tracker.startsLoss(down('n3'))).toBe(true);
    expect(tracker.startsLoss(node('n3', { state: { from: 'down', to: 'ready' } }))).toBe(false);
    expect(tracker.startsLoss(down('n3'))).toBe(true);
    expect(tracker.startsLoss(node('n3', { action: 'remove' }))).toBe(false);
    expect(tracker.startsLoss(down('n3'))).toBe(true);
  });

  it('ignores service changes', () => {
    const tracker = createNodeLossTracker();
    expect(tracker.startsLoss({ kind: 'service', action: 'update', serviceId: 's', name: 'web', at })).toBe(
      false,
    );
  });
});

describe('containersOnNode', () => {
  it("names this Berth's tasks last reported running, by service and slot", () => {
    const services = new Map([
      ['s1', 'env-shop-web'],
      ['s2', 'env-shop-worker'],
    ]);
    expect(
      containersOnNode(
        [
          { ID: 'a', ServiceID: 's1', Slot: 2, DesiredState: 'shutdown', Status: { State: 'running' } },
          { ID: 'b', ServiceID: 's1', Slot: 1, DesiredState: 'running', Status: { State: 'running' } },
          // A task that had stopped before is not one that moves.
          { ID: 'c', ServiceID: 's1', Slot: 3, DesiredState: 'shutdown', Status: { State: 'shutdown' } },
          { ID: 'd', ServiceID: 's2', Slot: 1, Status: { State: 'running' } },
          // A service that is not this Berth's app.
          { ID: 'e', ServiceID: 'other', Slot: 1, Status: { State: 'running' } },
        ],
        services,
      ),
    ).toEqual(['env-shop-web.1', 'env-shop-web.2', 'env-shop-worker.1']);
  });
});

describe('slotsSwarmKeeps', () => {
  const services = new Map([['s1', 'env-shop-web']]);
  const task = (ID: string, Slot: number, DesiredState: string, State: string, CreatedAt: string) => ({
    ID,
    ServiceID: 's1',
    Slot,
    DesiredState,
    CreatedAt,
    Status: { State },
  });

  it('keeps a slot whose task runs or is on its way, as old as its oldest task', () => {
    const kept = slotsSwarmKeeps(
      [
        task('a', 1, 'running', 'running', '2026-11-30T01:00:00Z'),
        // Slot 2 moves off a lost node: the new task is being prepared.
        task('b', 2, 'shutdown', 'running', '2026-11-30T01:00:00Z'),
        task('c', 2, 'running', 'preparing', '2026-11-30T02:00:00Z'),
        // Slot 3's task failed: Swarm no longer keeps it until it places another.
        task('d', 3, 'running', 'failed', '2026-11-30T01:00:00Z'),
        { ...task('e', 4, 'running', 'running', '2026-11-30T01:00:00Z'), ServiceID: 'other' },
      ],
      services,
    );
    expect([...kept.keys()].sort()).toEqual(['env-shop-web.1', 'env-shop-web.2']);
    expect(kept.get('env-shop-web.2')?.toISOString()).toBe('2026-11-30T02:00:00.000Z');
  });
});
