import { Link } from 'react-router';
import { isApiError } from '../../lib/api-client.ts';
import { messageOf } from '../../lib/error-message.ts';
import { paths } from '../../lib/paths.ts';
import { Banner } from './banner.tsx';

/** A refusal for a plan's limit (422 `plan_limit`, issue 37): its message names the limit and the plan. */
export function isPlanLimit(error: unknown): boolean {
  return isApiError(error, 'plan_limit');
}

/** The action a plan-limit refusal offers: the Plans page, where a plan that lifts it is chosen. */
export function PlansLink() {
  return <Link to={paths.plans}>View plans</Link>;
}

/** A form's failure action (form.tsx): the link to Plans for a plan's limit, nothing otherwise. */
export function planLimitAction(error: unknown) {
  return isPlanLimit(error) ? <PlansLink /> : null;
}

/**
 * A failed request's error banner. A refusal for a plan's limit shows the server's message (which limit,
 * its number, the plan that lifts it) with a link to Plans.
 */
export function FailureBanner({ error, message }: { error: unknown; message?: string }) {
  return (
    <Banner variant="error" actions={planLimitAction(error) ?? undefined}>
      {message ?? messageOf(error)}
    </Banner>
  );
}
