import { type MutationState, useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../../../lib/error-message.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { guidedDeployKeys } from './guided-deploy-keys.ts';
import { deployProject, type ProjectDeployDraft, type ProjectDeployResult } from './project-deploy.ts';

/**
 * spec 3 §4 Project deploy, keyed by app: it runs on while the console moves to the Deploying page,
 * which follows it with `useProjectDeployProgress`.
 */
export function useDeployProject(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: guidedDeployKeys.deploy(appId),
    mutationFn: (draft: ProjectDeployDraft) =>
      // After each step the databases and operation lists are read again, so the Deploying page shows them.
      deployProject(draft, () => {
        void queryClient.invalidateQueries({ queryKey: databaseKeys.all });
        void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
      }),
    onSettled: () => queryClient.invalidateQueries(),
  });
}

export interface ProjectDeployProgress {
  /** Databases, variables and provisioning are still being prepared in this browser. */
  preparing: boolean;
  /** Why the preparation stopped, or null. */
  error: string | null;
  deployOperationId: string | null;
}

/** The latest project deploy of the app started in this page's lifetime (none after a reload). */
export function useProjectDeployProgress(appId: string): ProjectDeployProgress {
  const states = useMutationState<MutationState<ProjectDeployResult, Error>>({
    filters: { mutationKey: guidedDeployKeys.deploy(appId) },
  });
  const latest = states.at(-1);
  return {
    preparing: latest?.status === 'pending',
    error: latest?.status === 'error' ? messageOf(latest.error) : null,
    deployOperationId: latest?.data?.deployOperationId ?? null,
  };
}
