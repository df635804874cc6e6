import { type HalResource, idOf } from '../../../lib/hal.ts';

/** contract §5.12: the cost lists of an organization. */
export type CostList = 'stacks' | 'accounts' | 'apps' | 'databases' | 'services';

/** contract §4.3 cost: the id is the costed resource's own id. */
export interface CostHal extends HalResource {
  resource_type: string;
  est_cost: number;
}

/** Estimated USD per month by resource id (unrounded; formatUsd rounds for display). */
export type CostsById = ReadonlyMap<string, number>;

export function costsById(costs: readonly CostHal[]): CostsById {
  return new Map(costs.map((cost) => [idOf(cost), Number(cost.est_cost) || 0]));
}

/** The sum of the costs of the given resources; one without a cost counts as 0. */
export function totalCost(costs: CostsById, ids: readonly string[]): number {
  return ids.reduce((sum, id) => sum + (costs.get(id) ?? 0), 0);
}
