// Issue 41: the organization's costs page, by resource type, from the cost lists (contract §5.12).
// An environment costs everything priced that lives in it (its apps, its databases and the backups of
// databases that are gone); dedicated stacks are billed beside the environments.

export type CostBreakdownType = 'apps' | 'databases' | 'orphanedBackups' | 'stacks';

export interface CostBreakdownRow {
  type: CostBreakdownType;
  label: string;
  /** How many resources of the type are priced (null where the lists give no count: leftover backups). */
  count: number | null;
  /** Estimated USD per month, unrounded. */
  monthly: number;
}

export interface CostBreakdown {
  rows: CostBreakdownRow[];
  /** Estimated USD per month for the organization as the caller sees it. */
  total: number;
}

/** The estimated monthly costs of the cost lists, each as the list's amounts. */
export interface CostLists {
  environments: readonly number[];
  apps: readonly number[];
  databases: readonly number[];
  stacks: readonly number[];
}

const sum = (amounts: readonly number[]) => amounts.reduce((total, amount) => total + amount, 0);

/** Below half a cent is rounding between the lists, not a cost of its own. */
const HALF_CENT = 0.005;

/**
 * The total by resource type. Apps and databases are the environments' parts; what the environments
 * cost beyond them is the backups of deleted databases; dedicated stacks come on top. Only the stacks
 * that cost something count.
 */
export function costBreakdown(lists: CostLists): CostBreakdown {
  const environments = sum(lists.environments);
  const apps = sum(lists.apps);
  const databases = sum(lists.databases);
  const stacks = lists.stacks.filter((amount) => amount > 0);
  const orphanedBackups = environments - apps - databases;
  const rows: CostBreakdownRow[] = [
    { type: 'apps', label: 'Apps', count: lists.apps.length, monthly: apps },
    { type: 'databases', label: 'Databases', count: lists.databases.length, monthly: databases },
  ];
  if (orphanedBackups >= HALF_CENT) {
    rows.push({
      type: 'orphanedBackups',
      label: 'Backups of deleted databases',
      count: null,
      monthly: orphanedBackups,
    });
  }
  rows.push({ type: 'stacks', label: 'Dedicated stacks', count: stacks.length, monthly: sum(stacks) });
  return { rows, total: Math.max(environments, apps + databases) + sum(stacks) };
}

/** A part's share of a total in whole percent ("0 %" for an empty total). */
export function costShare(part: number, total: number): string {
  return `${total > 0 ? Math.round((part / total) * 100) : 0} %`;
}
