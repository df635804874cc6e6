import type { CostRates, CostRatesBody, CostResource } from '@berth/core';

export type CostResourceType = 'Stack' | 'Account' | 'App' | 'Database' | 'Service';

export interface Cost {
  id: number;
  resourceType: CostResourceType;
  /** USD per month, unrounded (the console rounds for display). */
  estCost: number;
}

/** contract §4.3 cost: the id is the costed resource's own id. */
export function toCostHal(cost: Cost): CostResource {
  return {
    id: String(cost.id),
    _type: 'cost' as const,
    resource_type: cost.resourceType,
    est_cost: cost.estCost,
    _links: {},
  };
}

/** contract §4.3 cost rates: plain JSON, no `_type`. */
export function toCostRatesBody(rates: CostRates): CostRatesBody {
  return {
    m_class_gb_per_hour: rates.mClassGbPerHour,
    c_class_gb_per_hour: rates.cClassGbPerHour,
    r_class_gb_per_hour: rates.rClassGbPerHour,
    vhost_cost_per_hour: rates.vhostCostPerHour,
    shared_vhost_cost_per_hour: rates.sharedVhostCostPerHour,
    disk_cost_gb_per_month: rates.diskCostGbPerMonth,
    disk_iops_cost_per_month: rates.diskIopsCostPerMonth,
    backup_cost_gb_per_month: rates.backupCostGbPerMonth,
    stack_cost_per_month: rates.stackCostPerMonth,
    vpn_tunnel_cost_per_month: rates.vpnTunnelCostPerMonth,
    hids_cost_per_month: rates.hidsCostPerMonth,
  };
}
