import { type CertificateCollection, MAX_PAGES, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromCertificateResource } from '../../../resources/certificates/certificate.hal.ts';
import { certificateKeys } from './certificate-keys.ts';

/**
 * contract §5.9 GET /accounts/:id/certificates?page=N, auto-paged (contract §1.4): page 1, then pages
 * 2..N in parallel, N capped at MAX_PAGES (spec 1 §9). Any page failing fails the list.
 */
export function useEnvironmentCertificates(environmentId: string, { poll = true }: { poll?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: certificateKeys.ofEnvironment(environmentId),
    queryFn: async ({ signal }) => {
      const path = (page: number) =>
        `/accounts/${encodeURIComponent(environmentId)}/certificates?page=${page}`;
      const first = await apiRequest<CertificateCollection>('api', path(1), { signal });
      const perPage = first.per_page || 0;
      const pages = perPage > 0 ? Math.min(MAX_PAGES, Math.ceil((first.total_count ?? 0) / perPage)) : 1;
      const rest = await Promise.all(
        Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
          apiRequest<CertificateCollection>('api', path(index + 2), { signal }),
        ),
      );
      return [first, ...rest]
        .flatMap((list) => embeddedList(list, 'certificates'))
        .map(fromCertificateResource);
    },
    enabled: phase === 'authenticated' && environmentId !== '',
    // spec 2 §7, spec 3 §4: every 5 s, paused while the browser tab is hidden.
    refetchInterval: poll ? POLL_INTERVAL_MS.certificate : false,
    refetchIntervalInBackground: false,
  });
}
