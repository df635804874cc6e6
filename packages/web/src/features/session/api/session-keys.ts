export const sessionKeys = {
  all: ['session'] as const,
  currentToken: () => [...sessionKeys.all, 'current-token'] as const,
};
