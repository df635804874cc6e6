import { type CertificateResource, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromCertificateResource } from '../../../resources/certificates/certificate.hal.ts';
import { certificateKeys } from './certificate-keys.ts';

/** contract §5.9 GET /certificates/:id, polled every 5 s while the page is visible. */
export function useCertificate(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: certificateKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromCertificateResource(
        await apiRequest<CertificateResource>('api', `/certificates/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
    refetchInterval: POLL_INTERVAL_MS.certificate,
    refetchIntervalInBackground: false,
  });
}
