/**
 * The sidebar's list pages: lazy chunks like every screen, and fetched ahead once a signed-in console
 * is idle (startup-lists.tsx), so moving between them does not wait for their code.
 */
export const listPages = {
  environments: () => import('./routes/environments/list.tsx'),
  apps: () => import('./routes/apps/list.tsx'),
  databases: () => import('./routes/databases/list.tsx'),
  services: () => import('./routes/services/list.tsx'),
  deployments: () => import('./routes/deployments/list.tsx'),
  sources: () => import('./routes/sources/list.tsx'),
  activity: () => import('./routes/activity/list.tsx'),
  stacks: () => import('./routes/stacks/list.tsx'),
  endpoints: () => import('./routes/endpoints/list.tsx'),
};
