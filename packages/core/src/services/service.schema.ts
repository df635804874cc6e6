import { z } from 'zod';

// spec 2 §5 and §9: stop timeout 0 to 900 seconds; an empty field means null (the platform default).
export const STOP_TIMEOUT_MAX_SECONDS = 900;
export const serviceSettingsMessages = {
  stopTimeout: `Stop timeout must be between 0 and ${STOP_TIMEOUT_MAX_SECONDS} seconds`,
  forceZeroDowntime: 'Force zero downtime must be true or false',
  naiveHealthCheck: 'Simple healthcheck must be true or false',
} as const;

const stopTimeout = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return null;
  return /^-?\d+$/.test(text) ? Number(text) : value;
}, z
  .number({ error: serviceSettingsMessages.stopTimeout })
  .int(serviceSettingsMessages.stopTimeout)
  .min(0, serviceSettingsMessages.stopTimeout)
  .max(STOP_TIMEOUT_MAX_SECONDS, serviceSettingsMessages.stopTimeout)
  .nullable());

/** `PUT /services/:id`: deployment settings; keys left out keep their value. */
export const serviceSettingsSchema = z.object({
  force_zero_downtime: z.boolean({ error: serviceSettingsMessages.forceZeroDowntime }).optional(),
  naive_health_check: z.boolean({ error: serviceSettingsMessages.naiveHealthCheck }).optional(),
  stop_timeout: stopTimeout.optional(),
});
export type ServiceSettingsInput = z.infer<typeof serviceSettingsSchema>;
