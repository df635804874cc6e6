import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { imageResource } from '../images/image.hal.ts';
import { operationResource } from '../operations/operation.hal.ts';
import { serviceResource } from '../services/service.hal.ts';

/**
 * Contract §4.3 app. `_embedded` (its services, current image and latest operations) is left out when
 * the caller asks for `no_embed=true`, and so are the links to the app's own lists.
 */
export const appResource = z
  .strictObject({
    id: halId,
    _type: z.literal('app'),
    handle: z.string(),
    git_repo: z.string(),
    deployment_method: z.string(),
    status: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    // The contract's links, then the app's own lists, which bare (no_embed) lists leave out.
    _links: halLinks(
      ['self', 'account'],
      [
        'current_configuration',
        'current_deployment',
        'current_image',
        'current_source',
        'services',
        'deployments',
        'operations',
        'service_definitions',
      ],
    ),
    _embedded: z
      .strictObject({
        services: z.array(serviceResource),
        current_image: imageResource.nullable(),
        last_deploy_operation: operationResource.nullable(),
        last_operation: operationResource.nullable(),
      })
      .optional(),
  })
  .meta({ id: 'App' });
export type AppResource = z.infer<typeof appResource>;

export const appCollection = halCollection('apps', appResource).meta({ id: 'AppCollection' });
export type AppCollection = z.infer<typeof appCollection>;
