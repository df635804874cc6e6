import type { CallerRef } from '../../auth/caller-access.ts';
import { images } from '../../db/schema.ts';
import type { AppsService } from '../apps/apps.service.ts';

/** Images belong to an app and are read with the app's environment access (`image.read`). */
export function createImagesService(deps: { apps: AppsService }) {
  const { apps } = deps;
  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, images, id, 'image.read', 'Image');
    },
  };
}
export type ImagesService = ReturnType<typeof createImagesService>;
