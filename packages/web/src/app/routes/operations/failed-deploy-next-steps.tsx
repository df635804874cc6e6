import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { useAppDeployments } from '../../../features/apps/api/use-app-deployments.ts';
import {
  type AppOperationRequest,
  useStartAppOperation,
} from '../../../features/apps/api/use-start-app-operation.ts';
import { DeployForm } from '../../../features/apps/components/deploy-form.tsx';
import { DeploymentBadge } from '../../../features/deployments/components/deployment-badge.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import type { Deployment } from '../../../resources/deployments/deployment.hal.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';

/** What a deployment ran, in the words a person pushed it with: "main (efc22da)" or the image. */
export function deploymentLabel(
  deployment: Pick<Deployment, 'dockerImage' | 'gitRef' | 'gitCommitSha'>,
): string {
  if (deployment.dockerImage) return deployment.dockerImage;
  const sha = deployment.gitCommitSha.slice(0, 7);
  if (deployment.gitRef && sha) return `${deployment.gitRef} (${sha})`;
  return deployment.gitRef || sha || 'an unnamed build';
}

/**
 * The deploy that puts a deployment back: its image, else its exact commit (a branch may have moved on
 * since), else its ref.
 */
export function rollbackRequest(deployment: Deployment): AppOperationRequest {
  if (deployment.dockerImage) return { type: 'deploy', docker_image: deployment.dockerImage };
  return { type: 'deploy', git_ref: deployment.gitCommitSha || deployment.gitRef || 'main' };
}

/**
 * The latest deployment that succeeded before the failed one: what a roll back returns to. Deployments
 * come newest first.
 */
export function rollbackTarget(
  deployments: readonly Deployment[],
  failedOperationId: string,
): Deployment | null {
  const failed = deployments.find((item) => item.operationId === failedOperationId);
  return (
    deployments.find(
      (item) =>
        item.status === 'succeeded' && (!failed || item.createdAt.localeCompare(failed.createdAt) < 0),
    ) ?? null
  );
}

/**
 * Issue 41: a failed deploy says what is still running (the app's current deployment) and offers the
 * way forward beside Re-run, as Heroku and Render do: deploy another ref, or roll back to the deployment
 * that last succeeded. The actions show only to someone who may deploy (core's `app.deploy`).
 * It joins apps, deployments and operations, so it lives with the route.
 */
export function FailedDeployNextSteps({ operation }: { operation: Operation }) {
  const appId = operation.resourceId;
  const app = useApp(appId);
  const deployments = useAppDeployments(appId);
  const denial = useActionDenial('app.deploy', operation.environmentId);
  const start = useStartAppOperation(appId);
  const navigate = useNavigate();
  const [choosingRef, setChoosingRef] = useState(false);
  if (!app.data || !deployments.data) return null;

  const list = deployments.data;
  const current = list.find((item) => item.id === app.data.currentDeploymentId) ?? null;
  const failed = list.find((item) => item.operationId === operation.id) ?? null;
  const target = rollbackTarget(list, operation.id);
  const startDeploy = async (request: AppOperationRequest) => {
    const next = await start.mutateAsync(request);
    navigate(to.operation(next.id));
  };

  return (
    <div className="failure-next-steps stack-gap">
      <p>
        {failed ? (
          <>
            <DeploymentBadge status={failed.status} /> Deployment {failed.id}: {deploymentLabel(failed)}.{' '}
          </>
        ) : null}
        {current ? (
          <>
            <DeploymentBadge status={current.status} /> {app.data.handle} is still serving{' '}
            {deploymentLabel(current)}
            {current.id === target?.id ? ` (deployment ${current.id})` : ''}.
          </>
        ) : (
          <>{app.data.handle} has no running deployment.</>
        )}
      </p>
      {denial === null ? (
        <div className="failure-actions">
          <Button
            variant="secondary"
            size="sm"
            aria-expanded={choosingRef}
            onClick={() => setChoosingRef((open) => !open)}
          >
            Deploy another ref
          </Button>
          {target ? (
            <ConfirmButton
              denial={null}
              label={`Roll back to deployment ${target.id}`}
              confirmLabel={`Confirm roll back to deployment ${target.id}`}
              warning={<>Deploys {deploymentLabel(target)} again.</>}
              onConfirm={() => startDeploy(rollbackRequest(target))}
            >
              Roll back to deployment {target.id}
            </ConfirmButton>
          ) : null}
          {start.isError ? (
            <span className="field-error" role="alert">
              {start.error.message}
            </span>
          ) : null}
        </div>
      ) : null}
      {choosingRef && denial === null ? (
        <DeployForm denial={null} onDeploy={(gitRef) => startDeploy({ type: 'deploy', git_ref: gitRef })} />
      ) : null}
    </div>
  );
}
