import { countedLimitRefusal, PLAN_CATALOG, PLAN_NAMES, scopeDenialMessage } from '@berth/core';
import type { BaseSyntheticEvent } from 'react';
import { showToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';

// What the guide's pieces are shown with: the rules' real texts (core), and actions that change nothing.

/** A real rule's text, as a teammate without the deploy scope sees it on environment 42. */
export const SAMPLE_DENIAL = scopeDenialMessage('deploy', '42');

/** A plan-limit refusal as the server words it (core's rule), in the error the API client makes of it. */
export const PLAN_LIMIT_ERROR = new ApiError(
  422,
  countedLimitRefusal(
    'environments',
    PLAN_CATALOG.starter,
    PLAN_NAMES.map((name) => PLAN_CATALOG[name]),
    (PLAN_CATALOG.starter.environmentLimit ?? 0) + 1,
  ).message,
  'plan_limit',
  null,
);

/** Waits as a request would, then says that nothing was changed. */
export async function pretendRequest(what: string): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 800));
  showToast(`${what}: the style guide changes nothing.`);
}

/** A form's state with no request behind it, as `Form` reads it (a submit goes nowhere). */
export function staticForm(state: { failure?: string; success?: string; pending?: boolean }) {
  return {
    submit: async (event?: BaseSyntheticEvent) => {
      event?.preventDefault();
    },
    failure: state.failure ?? null,
    success: state.success ?? null,
    formState: { isSubmitting: state.pending ?? false },
  };
}
