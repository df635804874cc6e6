import {
  type AppResource,
  createAppSchema,
  createEnvironmentSchema,
  type EnvironmentResource,
  projectCreationProblem,
} from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';
import { type App, fromAppResource } from '../../../resources/apps/app.hal.ts';
import { fromEnvironmentResource } from '../../../resources/environments/environment.hal.ts';

export interface ProjectDraft {
  organizationId: string;
  stackId: string;
  /** spec 3 §7: a dedicated stack makes a production environment. */
  dedicatedStack: boolean;
  /** The environment's and the app's handle. */
  name: string;
  /** The organization's environments, where one of the same handle is reused. */
  environments: readonly { id: string; handle: string }[];
}

/**
 * spec 3 §4 Project creation: error if the stack or the name is empty; otherwise reuse the environment
 * with the same handle or create one (contract §5.6 POST /accounts), then create the app in it.
 */
export async function createProject(draft: ProjectDraft): Promise<App> {
  const problem = projectCreationProblem(draft);
  if (problem) throw new Error(problem);
  const { handle } = createAppSchema.parse({ handle: draft.name });
  let environmentId = draft.environments.find((environment) => environment.handle === handle)?.id;
  if (!environmentId) {
    const body = createEnvironmentSchema.parse({
      handle,
      organization_id: draft.organizationId,
      type: draft.dedicatedStack ? 'production' : 'development',
      onboarding_status: 'initiated',
      stack_id: draft.stackId,
    });
    const environment = fromEnvironmentResource(
      await apiRequest<EnvironmentResource>('api', '/accounts', { method: 'POST', body }),
    );
    environmentId = environment.id;
  }
  return fromAppResource(
    await apiRequest<AppResource>('api', `/accounts/${encodeURIComponent(environmentId)}/apps`, {
      method: 'POST',
      body: { handle, account_id: environmentId },
    }),
  );
}
