export const auditEventKeys = {
  all: ['audit-events'] as const,
  list: (path: string) => [...auditEventKeys.all, 'list', path] as const,
};
