import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';

/** spec 2 §2 / spec 3 §2: one database an app is created with, bound to an environment variable. */
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

/**
 * spec 2 §2: `dbs` on app creation prefills databases as comma-separated `env:type:version` entries
 * (`DATABASE_URL:postgresql:14,REDIS_URL:redis:3.0`). An entry's image is the visible image of that type
 * and version; an unknown one leaves the selector unpicked so the user chooses. Blank entries are skipped.
 */
export function parseDatabasesParam(
  value: string | null,
  images: readonly Pick<DatabaseImage, 'id' | 'type' | 'version' | 'visible'>[],
): DatabaseSelector[] {
  if (!value) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const [envVar = '', type = '', ...rest] = entry.split(':');
      const version = rest.join(':');
      const image = images.find(
        (item) => item.visible && item.type === type.trim().toLowerCase() && item.version === version.trim(),
      );
      return { envVar: envVar.trim(), imageId: image?.id ?? '' };
    });
}

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
