/**
 * The guided deploy's mutations are keyed by app, so the Deploying page reads the one the Configure
 * page started (it keeps running while the pages change), and its code scan results by id.
 */
export const guidedDeployKeys = {
  all: ['guided-deploy'] as const,
  deploy: (appId: string) => [...guidedDeployKeys.all, 'deploy', appId] as const,
  redeploy: (appId: string) => [...guidedDeployKeys.all, 'redeploy', appId] as const,
  codeScanResult: (id: string) => ['code_scan_results', id] as const,
};
