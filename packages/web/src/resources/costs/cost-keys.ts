import type { CostList } from './cost.hal.ts';

export const costKeys = {
  all: ['costs'] as const,
  list: (organizationId: string, list: CostList) => [...costKeys.all, organizationId, list] as const,
};
