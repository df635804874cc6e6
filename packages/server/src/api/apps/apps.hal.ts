import { type AppResource, httpGitRemote } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { apps } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';
import { type OperationRow, toOperationHal } from '../../operations/operations.hal.ts';
import { runsRealContainers } from '../../runtimes/runtime.ts';
import { type ImageRow, toImageHal } from '../images/images.hal.ts';
import { type ServiceRow, toServiceHal } from '../services/services.hal.ts';

export type AppRow = typeof apps.$inferSelect;

export interface AppEmbeds {
  services: ServiceRow[];
  currentImage: ImageRow | null;
  lastDeployOperation: OperationRow | null;
  lastOperation: OperationRow | null;
  /** Operation id → code scan result id, for the embedded scan_code operations that produced one. */
  codeScanResults: Map<number, number>;
}

export interface AppView {
  app: AppRow;
  environmentHandle: string;
  /** The stack's runtime: on `docker` the remote is Berth's own git over HTTP; others have none. */
  runtime: string;
  /** Absent when the caller asked for `no_embed=true`. */
  embedded?: AppEmbeds;
}

export function toAppHal(view: AppView, urls: FamilyUrls): AppResource {
  const { app, embedded } = view;
  const api = urls.api;
  return {
    id: String(app.id),
    _type: 'app' as const,
    handle: app.handle,
    // Issue 35: only the docker runtime receives pushes (Berth's own git over HTTP); a simulated stack
    // has no remote, and names none that does not exist.
    git_repo: runsRealContainers(view.runtime)
      ? httpGitRemote(urls.app, view.environmentHandle, app.handle)
      : '',
    deployment_method: app.deploymentMethod,
    status: app.status,
    created_at: iso(app.createdAt),
    updated_at: iso(app.updatedAt),
    _links: links({
      self: `${api}/apps/${app.id}`,
      account: `${api}/accounts/${app.environmentId}`,
      current_configuration: app.currentConfigurationId
        ? `${api}/configurations/${app.currentConfigurationId}`
        : null,
      current_deployment: app.currentDeploymentId ? `${api}/deployments/${app.currentDeploymentId}` : null,
      current_image: app.currentImageId ? `${api}/images/${app.currentImageId}` : null,
      current_source: app.currentSourceId ? `${api}/sources/${app.currentSourceId}` : null,
      // Beyond the contract's links: left out of bare (no_embed) lists, whose 5000 rows stay lean.
      ...(embedded
        ? {
            services: `${api}/apps/${app.id}/services`,
            deployments: `${api}/apps/${app.id}/deployments`,
            operations: `${api}/apps/${app.id}/operations`,
            service_definitions: `${api}/apps/${app.id}/service_definitions`,
          }
        : {}),
    }),
    ...(embedded
      ? {
          _embedded: {
            services: embedded.services.map((service) => toServiceHal(service, urls)),
            current_image: embedded.currentImage ? toImageHal(embedded.currentImage, urls) : null,
            last_deploy_operation: embedded.lastDeployOperation
              ? toOperationHal(embedded.lastDeployOperation, urls)
              : null,
            last_operation: embedded.lastOperation
              ? toOperationHal(embedded.lastOperation, urls, {
                  codeScanResultId: embedded.codeScanResults.get(embedded.lastOperation.id) ?? null,
                })
              : null,
          },
        }
      : {}),
  };
}
