import { useQueries } from '@tanstack/react-query';
import { apiRequest, type ServiceFamily } from '../../../lib/api-client.ts';
import type { OpenApiDocument } from '../openapi.ts';
import { apiReferenceKeys } from './api-reference-keys.ts';

/** The service families, in the order the reference lists them. */
export const API_FAMILIES: readonly { family: ServiceFamily; label: string }[] = [
  { family: 'auth', label: 'Auth' },
  { family: 'api', label: 'API' },
  { family: 'metrics', label: 'Metrics' },
  { family: 'billing', label: 'Billing' },
];

/**
 * Each family's OpenAPI document (`<family>/openapi.json`), one query per family so a family that does
 * not answer leaves the others readable. The documents are public: no token is sent, signed in or not.
 */
export function useOpenApiDocuments() {
  return useQueries({
    queries: API_FAMILIES.map(({ family }) => ({
      queryKey: apiReferenceKeys.document(family),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        apiRequest<OpenApiDocument>(family, '/openapi.json', { auth: 'none', credentials: 'omit', signal }),
      // The documents change only with a new server: no refetch while the page is open.
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
}
