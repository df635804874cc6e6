import type { CallerRef } from '../../auth/caller-access.ts';
import { configurations } from '../../db/schema.ts';
import type { AppsService } from '../apps/apps.service.ts';

/** Configurations belong to an app; their values are sensitive (`app.configuration.read` needs read, spec 1 §6). */
export function createConfigurationsService(deps: { apps: AppsService }) {
  const { apps } = deps;
  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, configurations, id, 'app.configuration.read', 'Configuration');
    },
  };
}
export type ConfigurationsService = ReturnType<typeof createConfigurationsService>;
