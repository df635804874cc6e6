export const stackKeys = {
  all: ['stacks'] as const,
  list: () => [...stackKeys.all, 'list'] as const,
  detail: (id: string) => [...stackKeys.all, 'detail', id] as const,
};
