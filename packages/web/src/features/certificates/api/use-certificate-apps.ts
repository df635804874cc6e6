import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection, type HalResource, idOf } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { certificateKeys } from './certificate-keys.ts';

export interface CertificateApp {
  id: string;
  handle: string;
}

/** contract §5.9 GET /certificates/:id/apps: the apps whose endpoints use the certificate. */
export function useCertificateApps(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: certificateKeys.apps(id),
    queryFn: async ({ signal }): Promise<CertificateApp[]> => {
      const list = await apiRequest<HalCollection<HalResource & { handle?: string }>>(
        'api',
        `/certificates/${encodeURIComponent(id)}/apps`,
        { signal },
      );
      return embeddedList(list, 'apps').map((app) => ({ id: idOf(app), handle: app.handle ?? '' }));
    },
    enabled: phase === 'authenticated' && id !== '',
  });
}
