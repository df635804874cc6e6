import type { DeploymentResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { deployments } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type DeploymentRow = typeof deployments.$inferSelect;

/** Contract §4.3 deployment: the git and docker fields are nullable (read as ""). */
export function toDeploymentHal(deployment: DeploymentRow, urls: FamilyUrls): DeploymentResource {
  return {
    id: String(deployment.id),
    _type: 'deployment' as const,
    status: deployment.status,
    docker_image: deployment.dockerImage,
    docker_repository_url: deployment.dockerRepositoryUrl,
    git_repository_url: deployment.gitRepositoryUrl,
    git_ref: deployment.gitRef,
    git_commit_sha: deployment.gitCommitSha,
    git_commit_url: deployment.gitCommitUrl,
    git_commit_message: deployment.gitCommitMessage,
    git_commit_timestamp: iso(deployment.gitCommitTimestamp),
    created_at: iso(deployment.createdAt),
    updated_at: iso(deployment.updatedAt),
    _links: links({
      self: `${urls.api}/deployments/${deployment.id}`,
      app: `${urls.api}/apps/${deployment.appId}`,
      operation: `${urls.api}/operations/${deployment.operationId}`,
      configuration: deployment.configurationId
        ? `${urls.api}/configurations/${deployment.configurationId}`
        : null,
      image: deployment.imageId ? `${urls.api}/images/${deployment.imageId}` : null,
      source: deployment.sourceId ? `${urls.api}/sources/${deployment.sourceId}` : null,
    }),
  };
}
