import type { AppResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';
import { fromOperationResource, type Operation } from '../operations/operation.hal.ts';

/** contract §4.3 app as the console reads it: the app screens and an environment's Apps tab. */
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
  lastDeployOperation: Operation | null;
  lastOperation: Operation | null;
  createdAt: string;
  updatedAt: string;
}

export function fromAppResource(app: AppResource): App {
  const image = app._embedded?.current_image ?? null;
  const lastDeploy = app._embedded?.last_deploy_operation ?? null;
  const last = app._embedded?.last_operation ?? null;
  return {
    id: idOf(app),
    handle: app.handle,
    environmentId: linkId(app, 'account') ?? '',
    gitRepo: app.git_repo,
    deploymentMethod: app.deployment_method,
    status: app.status,
    currentConfigurationId: linkId(app, 'current_configuration'),
    currentDeploymentId: linkId(app, 'current_deployment'),
    currentImageId: linkId(app, 'current_image'),
    currentSourceId: linkId(app, 'current_source'),
    serviceCount: app._embedded ? app._embedded.services.length : null,
    currentImage: image
      ? { dockerRepo: image.docker_repo ?? '', dockerRef: image.docker_ref ?? '', gitRef: image.git_ref }
      : null,
    lastDeployOperation: lastDeploy ? fromOperationResource(lastDeploy) : null,
    lastOperation: last ? fromOperationResource(last) : null,
    createdAt: app.created_at,
    updatedAt: app.updated_at,
  };
}

/** spec 2 §2 app detail: Direct Docker Image or Git Push. */
export function deploymentType(app: Pick<App, 'deploymentMethod'>): 'Direct Docker Image' | 'Git Push' {
  return app.deploymentMethod === 'docker_image' ? 'Direct Docker Image' : 'Git Push';
}
