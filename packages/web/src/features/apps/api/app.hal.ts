import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 image (embedded as `current_image`). */
export interface ImageHal extends HalResource {
  docker_repo?: string | null;
  docker_ref?: string | null;
  git_repo?: string | null;
  git_ref?: string | null;
}

/** contract §4.3 operation: the fields the app screens show. */
export interface AppOperationHal extends HalResource {
  type: string;
  status: string;
  git_ref?: string | null;
  user_name?: string | null;
  user_email?: string | null;
  resource_type?: string | null;
  resource_handle?: string | null;
  note?: string | null;
  created_at?: string;
  updated_at?: string;
}

/** contract §4.3 app. */
export interface AppHal extends HalResource {
  handle: string;
  git_repo?: string | null;
  deployment_method?: string | null;
  status?: string | null;
  created_at?: string;
  updated_at?: string;
  _embedded?: {
    services?: HalResource[] | null;
    current_image?: ImageHal | null;
    last_deploy_operation?: AppOperationHal | null;
    last_operation?: AppOperationHal | null;
  };
}

export interface AppOperation {
  id: string;
  type: string;
  status: string;
  gitRef: string | null;
  userName: string;
  resourceType: string;
  resourceHandle: string;
  note: string;
  createdAt: string;
  updatedAt: string;
}

export interface App {
  id: string;
  handle: string;
  environmentId: string;
  gitRepo: string;
  deploymentMethod: string;
  status: string;
  currentConfigurationId: string | null;
  currentDeploymentId: string | null;
  currentImageId: string | null;
  currentSourceId: string | null;
  /** Service count when the services were embedded, else null. */
  serviceCount: number | null;
  currentImage: { dockerRepo: string; dockerRef: string; gitRef: string | null } | null;
  lastDeployOperation: AppOperation | null;
  lastOperation: AppOperation | null;
  createdAt: string;
  updatedAt: string;
}

export function fromAppOperationHal(operation: AppOperationHal): AppOperation {
  return {
    id: idOf(operation),
    type: operation.type ?? '',
    status: operation.status ?? '',
    gitRef: operation.git_ref ?? null,
    userName: operation.user_name || operation.user_email || '',
    resourceType: operation.resource_type ?? '',
    resourceHandle: operation.resource_handle ?? '',
    note: operation.note ?? '',
    createdAt: operation.created_at ?? '',
    updatedAt: operation.updated_at ?? operation.created_at ?? '',
  };
}

export function fromAppHal(app: AppHal): App {
  const image = app._embedded?.current_image ?? null;
  const lastDeploy = app._embedded?.last_deploy_operation ?? null;
  const last = app._embedded?.last_operation ?? null;
  return {
    id: idOf(app),
    handle: app.handle ?? '',
    environmentId: linkId(app, 'account') ?? '',
    gitRepo: app.git_repo ?? '',
    deploymentMethod: app.deployment_method ?? '',
    status: app.status ?? 'unknown',
    currentConfigurationId: linkId(app, 'current_configuration'),
    currentDeploymentId: linkId(app, 'current_deployment'),
    currentImageId: linkId(app, 'current_image'),
    currentSourceId: linkId(app, 'current_source'),
    serviceCount: app._embedded?.services ? app._embedded.services.length : null,
    currentImage: image
      ? {
          dockerRepo: image.docker_repo ?? '',
          dockerRef: image.docker_ref ?? '',
          gitRef: image.git_ref ?? null,
        }
      : null,
    lastDeployOperation: lastDeploy ? fromAppOperationHal(lastDeploy) : null,
    lastOperation: last ? fromAppOperationHal(last) : null,
    createdAt: app.created_at ?? '',
    updatedAt: app.updated_at ?? '',
  };
}

/** spec 2 §2 app detail: Direct Docker Image or Git Push. */
export function deploymentType(app: Pick<App, 'deploymentMethod'>): 'Direct Docker Image' | 'Git Push' {
  return app.deploymentMethod === 'docker_image' ? 'Direct Docker Image' : 'Git Push';
}

/** contract §4.3 deployment: null text fields read as "". */
export interface DeploymentHal extends HalResource {
  status?: string | null;
  docker_image?: string | null;
  git_ref?: string | null;
  git_commit_sha?: string | null;
  git_commit_message?: string | null;
  created_at?: string;
  updated_at?: string;
}

export interface AppDeployment {
  id: string;
  status: string;
  dockerImage: string;
  gitRef: string;
  gitCommitSha: string;
  gitCommitMessage: string;
  operationId: string | null;
  sourceId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function fromDeploymentHal(deployment: DeploymentHal): AppDeployment {
  return {
    id: idOf(deployment),
    status: deployment.status ?? '',
    dockerImage: deployment.docker_image ?? '',
    gitRef: deployment.git_ref ?? '',
    gitCommitSha: deployment.git_commit_sha ?? '',
    gitCommitMessage: deployment.git_commit_message ?? '',
    operationId: linkId(deployment, 'operation'),
    sourceId: linkId(deployment, 'source'),
    createdAt: deployment.created_at ?? '',
    updatedAt: deployment.updated_at ?? deployment.created_at ?? '',
  };
}

/** contract §4.3 configuration. */
export interface ConfigurationHal extends HalResource {
  env?: Record<string, string | null> | null;
}

/** The operation statuses that are still moving (spec 2 §4). */
export function isOperationFinished(status: string): boolean {
  return status === 'succeeded' || status === 'failed';
}
