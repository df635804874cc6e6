import type { DatabaseImageResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { databaseImages } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type DatabaseImageRow = typeof databaseImages.$inferSelect;

/**
 * contract §4.3 database_image. `eol_at` non-empty makes the console show an end-of-life notice, so it is
 * sent only once the date has been reached; a future end of life is kept in the database until then.
 */
export function toDatabaseImageHal(
  image: DatabaseImageRow,
  urls: FamilyUrls,
  now: Date = new Date(),
): DatabaseImageResource {
  return {
    id: String(image.id),
    _type: 'database_image' as const,
    type: image.type,
    version: image.version,
    description: image.description,
    docker_repo: image.dockerRepo,
    default: image.isDefault,
    discoverable: image.discoverable,
    visible: image.visible,
    eol_at: image.eolAt && image.eolAt.getTime() <= now.getTime() ? iso(image.eolAt) : null,
    pitr_supported: image.pitrSupported,
    created_at: iso(image.createdAt),
    updated_at: iso(image.updatedAt),
    _links: links({ self: `${urls.api}/database_images/${image.id}` }),
  };
}
