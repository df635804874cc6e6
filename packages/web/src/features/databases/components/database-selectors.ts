import type { DatabaseSelector } from '@berth/core';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';

// The selector and its rules live in core, shared with the guided deploy's configure step.
export { type DatabaseSelector, databaseSelectorMessages, databaseSelectorProblems } from '@berth/core';

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
