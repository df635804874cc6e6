export const searchKeys = {
  all: ['search'] as const,
  /** One search text's answer: each text has its own, so a late answer never shows under a newer text. */
  text: (text: string) => [...searchKeys.all, 'text', text] as const,
  /** The remembered resources (Recently Viewed, Most Visited) by their keys. */
  resources: (keys: readonly string[]) => [...searchKeys.all, 'resources', ...keys] as const,
};
