// spec 2 §2 / spec 3 §2 and §5: the databases an app is created or deployed with, each bound to an
// environment variable that receives its connection URL. Written once for Name your App and the guided
// deploy's configure step.

export interface DatabaseSelector {
  /** The app's environment variable that will hold the connection URL (e.g. DATABASE_URL). */
  envVar: string;
  /** The chosen image, '' when none is picked yet. */
  imageId: string;
}

export const databaseSelectorMessages = {
  duplicate: (envVar: string) => `${envVar} has already been used, each database env var must be unique`,
  imageRequired: 'Must pick a database or delete the selector from the menu',
} as const;

/** spec 2 §5: each selector's problem (or null), in order: its image first, then a repeated env var. */
export function databaseSelectorProblems(selectors: readonly DatabaseSelector[]): (string | null)[] {
  const seen = new Set<string>();
  return selectors.map((selector) => {
    if (!selector.imageId) return databaseSelectorMessages.imageRequired;
    const envVar = selector.envVar.trim();
    if (seen.has(envVar)) return databaseSelectorMessages.duplicate(envVar);
    seen.add(envVar);
    return null;
  });
}
