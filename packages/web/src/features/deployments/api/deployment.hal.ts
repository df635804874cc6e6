import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 deployment: the git and docker fields are nullable and read as "". */
export interface DeploymentHal extends HalResource {
  status?: string | null;
  docker_image?: string | null;
  docker_repository_url?: string | null;
  git_repository_url?: string | null;
  git_ref?: string | null;
  git_commit_sha?: string | null;
  git_commit_url?: string | null;
  git_commit_message?: string | null;
  git_commit_timestamp?: string | null;
  created_at?: string;
  updated_at?: string;
}

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

export function fromDeploymentHal(deployment: DeploymentHal): Deployment {
  return {
    id: idOf(deployment),
    status: deployment.status ?? '',
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
    createdAt: deployment.created_at ?? '',
    updatedAt: deployment.updated_at ?? deployment.created_at ?? '',
  };
}

/** contract §4.3 configuration. */
export interface ConfigurationHal extends HalResource {
  env?: Record<string, string | null> | null;
}
