import { projectMessages } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { showToast } from '../../../components/ui/toast.tsx';
import { useActor } from '../../../lib/actor.tsx';
import { guidedDeployKeys } from './guided-deploy-keys.ts';
import { type RedeploySource, redeployApp } from './project-deploy.ts';

export interface RedeployInput {
  environmentId: string;
  source: RedeploySource;
  waitsForDatabases: boolean;
}

/**
 * spec 3 §4 Redeploy, with the spec's toast once the deploy is asked for. It stops following its
 * operations when the page that asked for it goes.
 */
export function useRedeploy(appId: string) {
  const queryClient = useQueryClient();
  const actor = useActor();
  const controller = useRef<AbortController | null>(null);
  useEffect(() => {
    const current = new AbortController();
    controller.current = current;
    return () => current.abort();
  }, []);
  return useMutation({
    mutationKey: guidedDeployKeys.redeploy(appId),
    mutationFn: (input: RedeployInput) =>
      redeployApp({ appId, ...input, actor, signal: controller.current?.signal }),
    onSuccess: () => showToast(projectMessages.redeployInitiated),
    onSettled: () => queryClient.invalidateQueries(),
  });
}
