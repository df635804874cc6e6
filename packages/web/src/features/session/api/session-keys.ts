export const sessionKeys = {
  all: ['session'] as const,
  currentToken: () => [...sessionKeys.all, 'current-token'] as const,
  /** One try per session token at an elevation from its sudo window. */
  elevationWindow: (accessTokenId: string) =>
    [...sessionKeys.all, 'elevation-window', accessTokenId] as const,
};
