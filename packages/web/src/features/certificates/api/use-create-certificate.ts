import type { CertificateResource, CreateCertificateInput } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromCertificateResource } from '../../../resources/certificates/certificate.hal.ts';
import { certificateKeys } from './certificate-keys.ts';

/** contract §5.9 POST /accounts/:id/certificates {certificate_body, private_key}; the server parses the PEM. */
export function useCreateCertificate(environmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The request carries the private key: drop the finished mutation from the cache at once instead
    // of keeping it (and the key) for the default 5 minutes.
    gcTime: 0,
    mutationFn: async (input: CreateCertificateInput) =>
      fromCertificateResource(
        await apiRequest<CertificateResource>(
          'api',
          `/accounts/${encodeURIComponent(environmentId)}/certificates`,
          {
            method: 'POST',
            body: input,
          },
        ),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: certificateKeys.all }),
  });
}
