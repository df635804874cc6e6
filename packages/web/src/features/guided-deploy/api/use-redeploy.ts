import { projectMessages } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { showToast } from '../../../components/ui/toast.tsx';
import { guidedDeployKeys } from './guided-deploy-keys.ts';
import { redeployApp } from './project-deploy.ts';

/** spec 3 §4 Redeploy, with the spec's toast once the deploy is asked for. */
export function useRedeploy(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: guidedDeployKeys.redeploy(appId),
    mutationFn: (input: { environmentId: string; gitRef: string }) => redeployApp({ appId, ...input }),
    onSuccess: () => showToast(projectMessages.redeployInitiated),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
