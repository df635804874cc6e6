import { type ReactNode, useState } from 'react';
import { Banner } from '../../components/ui/banner.tsx';
import { ConfirmButton } from '../../components/ui/confirm-button.tsx';
import { messageOf } from '../../lib/error-message.ts';
import { OperationProgress } from './operation-progress.tsx';

export interface RestartActionOptions {
  /** The button's visible text, also its whole accessible name (a name that contains what is shown). */
  label: string;
  /** The confirming button's text, naming what restarts. */
  confirmLabel: string;
  /** What a restart does to the running resource, read with Confirm. */
  warning: string;
  /** The permission rule's text when the caller may not restart (spec 1 §6), or null. */
  denial: string | null;
  /** Starts the restart operation. */
  start: () => Promise<{ id: string }>;
  /** Refreshes what the ended operation changed. */
  onFinished: () => void;
}

/**
 * Issue 41: Restart in a page header (app, service) rather than at the foot of Settings. The button asks
 * first (Confirm and Cancel in its place, Escape cancels), follows the permission rule as every action
 * button does, and the operation it starts is followed in a banner under the header.
 */
export function useRestartAction({
  label,
  confirmLabel,
  warning,
  denial,
  start,
  onFinished,
}: RestartActionOptions): { button: ReactNode; status: ReactNode } {
  const [operationId, setOperationId] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const button = (
    <ConfirmButton
      label={label}
      confirmLabel={confirmLabel}
      warning={warning}
      denial={denial}
      size="md"
      onConfirm={async () => {
        setFailure(null);
        try {
          setOperationId((await start()).id);
        } catch (error) {
          setFailure(messageOf(error));
          throw error;
        }
      }}
    >
      {label}
    </ConfirmButton>
  );
  const status = (
    <>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {operationId ? (
        <OperationProgress operationId={operationId} type="restart" onFinished={onFinished} />
      ) : null}
    </>
  );
  return { button, status };
}
