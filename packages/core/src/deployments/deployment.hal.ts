import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp, isoTimestampOrNull } from '../hal/hal.ts';

/** Contract §4.3 deployment: the git and docker fields are nullable (read as ""). */
export const deploymentResource = z
  .strictObject({
    id: halId,
    _type: z.literal('deployment'),
    status: z.string(),
    docker_image: z.string().nullable(),
    docker_repository_url: z.string().nullable(),
    git_repository_url: z.string().nullable(),
    git_ref: z.string().nullable(),
    git_commit_sha: z.string().nullable(),
    git_commit_url: z.string().nullable(),
    git_commit_message: z.string().nullable(),
    git_commit_timestamp: isoTimestampOrNull,
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'app', 'operation'], ['configuration', 'image', 'source']),
  })
  .meta({ id: 'Deployment' });
export type DeploymentResource = z.infer<typeof deploymentResource>;

export const deploymentCollection = halCollection('deployments', deploymentResource).meta({
  id: 'DeploymentCollection',
});
export type DeploymentCollection = z.infer<typeof deploymentCollection>;
