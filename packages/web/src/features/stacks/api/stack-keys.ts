export const stackKeys = {
  all: ['stacks'] as const,
  list: () => [...stackKeys.all, 'list'] as const,
};
