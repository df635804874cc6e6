import type { CallerRef } from '../../auth/caller-access.ts';
import { codeScanResults } from '../../db/schema.ts';
import type { AppsService } from '../apps/apps.service.ts';

/** Code scan results belong to an app and are read with the app's environment access (`code_scan_result.read`). */
export function createCodeScanResultsService(deps: { apps: AppsService }) {
  const { apps } = deps;
  return {
    get(ref: CallerRef, id: number | null) {
      return apps.getOwned(ref, codeScanResults, id, 'code_scan_result.read', 'Code scan result');
    },
  };
}
export type CodeScanResultsService = ReturnType<typeof createCodeScanResultsService>;
