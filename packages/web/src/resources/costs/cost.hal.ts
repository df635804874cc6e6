import type { CostResource } from '@berth/core';
import { idOf } from '../../lib/hal.ts';

/** contract §5.12: the cost lists of an organization. */
export type CostList = 'stacks' | 'accounts' | 'apps' | 'databases' | 'services';

/** Estimated USD per month by resource id (unrounded; formatUsd rounds for display). */
export type CostsById = ReadonlyMap<string, number>;

/** contract §4.3 cost: the id is the costed resource's own id. */
export function costsById(costs: readonly CostResource[]): CostsById {
  return new Map(costs.map((cost) => [idOf(cost), cost.est_cost]));
}

/** The sum of the costs of the given resources; one without a cost counts as 0. */
export function totalCost(costs: CostsById, ids: readonly string[]): number {
  return ids.reduce((sum, id) => sum + (costs.get(id) ?? 0), 0);
}
