import type { CodeScanResultResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { codeScanResults } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type CodeScanResultRow = typeof codeScanResults.$inferSelect;

/** Berth reads `berth.yml` and reports it under the console's wire name `aptible_yml_*` (contract §4.3). */
export function toCodeScanResultHal(result: CodeScanResultRow, urls: FamilyUrls): CodeScanResultResource {
  return {
    id: String(result.id),
    _type: 'code_scan_result' as const,
    dockerfile_present: result.dockerfilePresent,
    procfile_present: result.procfilePresent,
    aptible_yml_present: result.berthYmlPresent,
    dockerfile_data: result.dockerfileData ?? '',
    procfile_data: result.procfileData ?? '',
    aptible_yml_data: result.berthYmlData ?? '',
    languages_detected: result.languagesDetected,
    created_at: iso(result.createdAt),
    updated_at: iso(result.updatedAt),
    _links: links({
      self: `${urls.api}/code_scan_results/${result.id}`,
      app: `${urls.api}/apps/${result.appId}`,
      operation: `${urls.api}/operations/${result.operationId}`,
    }),
  };
}
