import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toCodeScanResultHal } from './code-scan-results.hal.ts';
import { createCodeScanResultsService } from './code-scan-results.service.ts';

export async function codeScanResultsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const codeScanResults = createCodeScanResultsService(deps);

  app.get<{ Params: { id: string } }>('/code_scan_results/:id', async (request) => {
    const caller = await callers.require(request);
    const result = await codeScanResults.get(caller, parseNumericId(request.params.id));
    return toCodeScanResultHal(result, urls);
  });
}
