/** The Security & Compliance queries: one environment's summary. */
export const securityKeys = {
  all: ['security_summary'] as const,
  summary: (environmentId: string) => [...securityKeys.all, environmentId] as const,
};
