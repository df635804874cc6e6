import type { DeploymentResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 deployment as the console reads it (the app's deployments, the list, the detail page). */
export interface Deployment {
  id: string;
  status: string;
  appId: string | null;
  operationId: string | null;
  configurationId: string | null;
  imageId: string | null;
  sourceId: string | null;
  dockerImage: string;
  gitRepositoryUrl: string;
  gitRef: string;
  gitCommitSha: string;
  gitCommitUrl: string;
  gitCommitMessage: string;
  createdAt: string;
  updatedAt: string;
}

/** The git and docker fields are nullable on the wire and read as "". */
export function fromDeploymentResource(deployment: DeploymentResource): Deployment {
  return {
    id: idOf(deployment),
    status: deployment.status,
    appId: linkId(deployment, 'app'),
    operationId: linkId(deployment, 'operation'),
    configurationId: linkId(deployment, 'configuration'),
    imageId: linkId(deployment, 'image'),
    sourceId: linkId(deployment, 'source'),
    dockerImage: deployment.docker_image ?? '',
    gitRepositoryUrl: deployment.git_repository_url ?? '',
    gitRef: deployment.git_ref ?? '',
    gitCommitSha: deployment.git_commit_sha ?? '',
    gitCommitUrl: deployment.git_commit_url ?? '',
    gitCommitMessage: deployment.git_commit_message ?? '',
    createdAt: deployment.created_at,
    updatedAt: deployment.updated_at,
  };
}
