import type { CodeScanResultResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { guidedDeployKeys } from './guided-deploy-keys.ts';

/** What a code scan found (contract §4.3 code_scan_result; `aptible_yml` is Berth's `.berth.yml`). */
export interface CodeScanResult {
  dockerfile: string | null;
  procfile: string | null;
  berthYml: string | null;
  languages: string[];
}

/** contract §5.7 GET /code_scan_results/:id; a null id asks nothing. */
export function useCodeScanResult(id: string | null) {
  return useQuery({
    queryKey: guidedDeployKeys.codeScanResult(id ?? ''),
    enabled: id !== null && id !== '',
    queryFn: async ({ signal }): Promise<CodeScanResult> => {
      const result = await apiRequest<CodeScanResultResource>(
        'api',
        `/code_scan_results/${encodeURIComponent(id ?? '')}`,
        { signal },
      );
      return {
        dockerfile: result.dockerfile_present ? result.dockerfile_data : null,
        procfile: result.procfile_present ? result.procfile_data : null,
        berthYml: result.aptible_yml_present ? result.aptible_yml_data : null,
        languages: result.languages_detected ?? [],
      };
    },
  });
}
