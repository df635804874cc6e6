import { z } from 'zod';
import { halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.3 configuration: an app's environment variables (a null value unsets the variable). */
export const configurationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('configuration'),
    env: z.record(z.string(), z.string().nullable()),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'resource']),
  })
  .meta({ id: 'Configuration' });
export type ConfigurationResource = z.infer<typeof configurationResource>;
