import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { codeScanResults } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseNumericId } from '../../http/ids.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { createAppsService } from '../apps/apps.service.ts';
import { toCodeScanResultHal } from './code-scan-results.hal.ts';

export async function codeScanResultsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { urls, guard } = deps;
  const apps = createAppsService(deps);

  app.get<{ Params: { id: string } }>('/code_scan_results/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const result = await apps.getOwned(
      caller.user.id,
      codeScanResults,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /code_scan_results/:id'],
      'Code scan result',
    );
    return toCodeScanResultHal(result, urls);
  });
}
