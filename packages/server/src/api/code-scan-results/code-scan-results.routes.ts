import { codeScanResultResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toCodeScanResultHal } from './code-scan-results.hal.ts';
import type { CodeScanResultsService } from './code-scan-results.service.ts';

export async function codeScanResultsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; codeScanResults: CodeScanResultsService },
) {
  const { urls, callers, codeScanResults } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/code_scan_results/:id',
    {
      schema: {
        tags: ['Code Scan Results'],
        summary: 'What a scan_code operation found in an app repository',
        params: idParams,
        response: responses({ 200: codeScanResultResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const result = await codeScanResults.get(caller, parseNumericId(request.params.id));
      return toCodeScanResultHal(result, urls);
    },
  );
}
