import { codeScanResultResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { getById } from '../../http/get-by-id.ts';
import { toCodeScanResultHal } from './code-scan-results.hal.ts';
import type { CodeScanResultsService } from './code-scan-results.service.ts';

export async function codeScanResultsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; codeScanResults: CodeScanResultsService },
) {
  const { urls, callers, codeScanResults } = deps;
  const route = {
    path: '/code_scan_results/:id',
    tags: ['Code Scan Results'],
    summary: 'What a scan_code operation found in an app repository',
    answer: codeScanResultResource,
    callers,
  };
  getById(fastify, route, async (caller, id) =>
    toCodeScanResultHal(await codeScanResults.get(caller, id), urls),
  );
}
