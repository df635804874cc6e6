import type { AppCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { type App, fromAppResource } from '../../../resources/apps/app.hal.ts';
import { certificateKeys } from './certificate-keys.ts';

export type CertificateApp = Pick<App, 'id' | 'handle'>;

/** contract §5.9 GET /certificates/:id/apps: the apps whose endpoints use the certificate. */
export function useCertificateApps(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: certificateKeys.apps(id),
    queryFn: async ({ signal }): Promise<CertificateApp[]> => {
      const list = await apiRequest<AppCollection>('api', `/certificates/${encodeURIComponent(id)}/apps`, {
        signal,
      });
      return embeddedList(list, 'apps')
        .map(fromAppResource)
        .map(({ id, handle }) => ({ id, handle }));
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}
