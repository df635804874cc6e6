import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** A process an app declares (a Procfile entry); a deploy turns each into a service. */
export const serviceDefinitionResource = z
  .strictObject({
    id: halId,
    _type: z.literal('service_definition'),
    process_type: z.string(),
    command: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'app']),
  })
  .meta({ id: 'ServiceDefinition' });
export type ServiceDefinitionResource = z.infer<typeof serviceDefinitionResource>;

export const serviceDefinitionCollection = halCollection(
  'service_definitions',
  serviceDefinitionResource,
).meta({
  id: 'ServiceDefinitionCollection',
});
export type ServiceDefinitionCollection = z.infer<typeof serviceDefinitionCollection>;
