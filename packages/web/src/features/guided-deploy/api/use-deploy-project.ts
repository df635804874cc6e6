import { type MutationState, useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { useActor } from '../../../lib/actor.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { sessionStore } from '../../../lib/session-store.ts';
import { databaseKeys } from '../../../resources/databases/database-keys.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { guidedDeployKeys } from './guided-deploy-keys.ts';
import { deployProject, type ProjectDeployDraft, type ProjectDeployResult } from './project-deploy.ts';

/**
 * spec 3 §4 Project deploy, keyed by app: it runs on while the console moves to the Deploying page,
 * which follows it with `useProjectDeployProgress` (and links each step's log, so leaving that page does
 * not stop it). It stops when the session ends (spec 1 §7: every call is cancelled).
 */
export function useDeployProject(appId: string) {
  const queryClient = useQueryClient();
  const actor = useActor();
  return useMutation({
    mutationKey: guidedDeployKeys.deploy(appId),
    mutationFn: async (draft: ProjectDeployDraft) => {
      const controller = new AbortController();
      const stopListening = sessionStore.onReset(() => controller.abort());
      try {
        return await deployProject(draft, {
          actor,
          signal: controller.signal,
          // After each step the databases and operation lists are read again, so the Deploying page shows them.
          onStep: () => {
            void queryClient.invalidateQueries({ queryKey: databaseKeys.all });
            void queryClient.invalidateQueries({ queryKey: operationKeys.lists() });
          },
        });
      } finally {
        stopListening();
      }
    },
    onSettled: () => queryClient.invalidateQueries(),
  });
}

export interface ProjectDeployProgress {
  /** Databases, variables and provisioning are still being prepared in this browser. */
  preparing: boolean;
  /** Why the preparation stopped, or null. */
  error: string | null;
  deployOperationId: string | null;
  /** When the latest project deploy was asked for (its identity), or null. */
  submittedAt: number | null;
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
    submittedAt: latest?.submittedAt ?? null,
  };
}
