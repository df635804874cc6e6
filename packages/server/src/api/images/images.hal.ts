import type { ImageResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { images } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type ImageRow = typeof images.$inferSelect;

export function toImageHal(image: ImageRow, urls: FamilyUrls): ImageResource {
  return {
    id: String(image.id),
    _type: 'image' as const,
    docker_repo: image.dockerRepo,
    docker_ref: image.dockerRef,
    git_repo: image.gitRepo,
    git_ref: image.gitRef,
    exposed_ports: image.exposedPorts,
    created_at: iso(image.createdAt),
    updated_at: iso(image.updatedAt),
    _links: links({ self: `${urls.api}/images/${image.id}`, app: `${urls.api}/apps/${image.appId}` }),
  };
}
