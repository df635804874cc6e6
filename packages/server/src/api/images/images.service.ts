import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema.ts';
import { createAppsService } from '../apps/apps.service.ts';

/** Images belong to an app and are read with the app's environment access (`image.read`). */
export function createImagesService(deps: { db: Db }) {
  const apps = createAppsService(deps);
  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, images, id, 'image.read', 'Image');
    },
  };
}
