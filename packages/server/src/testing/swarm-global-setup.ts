import { buildPgliteTemplate } from '../db/pglite-template.ts';
import { localSwarmCluster, swarmSuiteRuns } from './swarm-cluster.ts';

/**
 * Once per swarm suite run: the PGlite template (as for the other suites) and the local Swarm cluster,
 * which the suite's files share and which is taken down at the end whatever the tests did.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  await buildPgliteTemplate();
  if (!swarmSuiteRuns()) return undefined;
  const cluster = await localSwarmCluster();
  return () => cluster.down();
}
