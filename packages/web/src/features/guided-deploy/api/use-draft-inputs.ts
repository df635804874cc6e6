import { useConfiguration } from '../../../resources/configurations/use-configuration.ts';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';
import { useDatabaseImages, useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';

export interface DraftInputs {
  images: readonly DatabaseImage[];
  existingDatabaseHandles: string[];
  /** The app's variables; none when the caller may not read them (they are then left as they are). */
  currentEnv: Readonly<Record<string, string | null>>;
  loading: boolean;
  error: Error | null;
}

/**
 * What a guided deploy's draft is made from: the database images, the environment's database handles
 * (new ones must differ) and the app's current variables (read scope: `canReadConfiguration`).
 */
export function useDraftInputs(
  app: { environmentId: string; currentConfigurationId: string | null } | undefined,
  canReadConfiguration: boolean,
): DraftInputs {
  const images = useDatabaseImages();
  const databases = useEnvironmentDatabases(app?.environmentId ?? '');
  const readsConfiguration = app !== undefined && canReadConfiguration;
  const configuration = useConfiguration(app?.currentConfigurationId ?? null, readsConfiguration);
  return {
    images: images.data ?? [],
    existingDatabaseHandles: (databases.data ?? []).map((database) => database.handle),
    currentEnv: (readsConfiguration ? configuration.data : undefined) ?? {},
    loading:
      app === undefined ||
      images.isPending ||
      databases.isPending ||
      (readsConfiguration && configuration.isPending),
    error: images.error ?? databases.error ?? (readsConfiguration ? configuration.error : null),
  };
}
