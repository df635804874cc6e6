import type { ServiceFamily } from '../../../lib/api-client.ts';

export const apiReferenceKeys = {
  all: ['api-reference'] as const,
  document: (family: ServiceFamily) => [...apiReferenceKeys.all, family] as const,
};
