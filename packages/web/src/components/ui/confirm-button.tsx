import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { focusElement, isFocusLost } from '../../lib/focus.ts';
import { Button, type ButtonSize } from './button.tsx';
import { ScopedButton } from './permission-button.tsx';

export interface ConfirmButtonProps {
  /** The trigger's visible text, e.g. "Remove". */
  children: ReactNode;
  /** The trigger's accessible name, e.g. "Remove Bob Babbage". */
  label: string;
  /** The confirming button's text (and name), e.g. "Confirm remove Bob Babbage". */
  confirmLabel: string;
  /** What confirming does beyond the obvious, shown beside Confirm and read with it; or null. */
  warning?: ReactNode;
  /** Why the caller may not act (a permission rule's text), or null. */
  denial: string | null;
  disabled?: boolean;
  size?: ButtonSize;
  /** Runs the action. It shows its own failure; a rejection only leaves the trigger where it was. */
  onConfirm: () => Promise<unknown>;
  /**
   * Where focus goes when the action took the row away (the trigger with it). By default the table the
   * trigger sat in.
   */
  focusAfter?: () => HTMLElement | null | undefined;
}

type Phase = 'idle' | 'confirming' | 'running';

/**
 * A destructive row action asked twice: the trigger turns into Confirm and Cancel. Focus follows: to
 * Confirm when it appears, back to the trigger on Cancel (or Escape) and after a failure, and to the
 * table (or `focusAfter`) once the action removed the row, so keyboard users never land on the page body.
 */
export function ConfirmButton({
  children,
  label,
  confirmLabel,
  warning = null,
  denial,
  disabled = false,
  size = 'sm',
  onConfirm,
  focusAfter,
}: ConfirmButtonProps) {
  const [phase, setPhase] = useState<Phase>('idle');
  const trigger = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  const wrapper = useRef<HTMLSpanElement>(null);
  const focusNext = useRef<'trigger' | 'confirm' | null>(null);
  // Set once Confirm is pressed: if the row then goes away, focus moves on instead of being lost.
  const fallback = useRef<(() => HTMLElement | null | undefined) | null>(null);
  const warningId = useId();

  useEffect(() => {
    const target = focusNext.current === 'confirm' ? confirm.current : trigger.current;
    if (focusNext.current && target) {
      focusNext.current = null;
      target.focus();
    }
  });

  useEffect(
    () => () => {
      const next = fallback.current;
      // Passive cleanup runs after the row left the page: rescue the focus only if it fell to the body.
      if (next && isFocusLost()) focusElement(next());
    },
    [],
  );

  const start = () => {
    focusNext.current = 'confirm';
    setPhase('confirming');
  };
  const cancel = () => {
    focusNext.current = 'trigger';
    setPhase('idle');
  };
  const run = async () => {
    const table = wrapper.current?.closest('table') ?? null;
    fallback.current = focusAfter ?? (() => table);
    setPhase('running');
    try {
      await onConfirm();
    } catch {
      // The caller has shown the failure.
    }
    // Still here (the action failed, or the row stays): back to the trigger.
    focusNext.current = 'trigger';
    setPhase('idle');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Escape' && phase === 'confirming') {
      event.stopPropagation();
      cancel();
    }
  };

  if (phase === 'idle') {
    return (
      <ScopedButton
        ref={trigger}
        size={size}
        variant="secondary"
        denial={denial}
        disabled={disabled}
        aria-label={label}
        onClick={start}
      >
        {children}
      </ScopedButton>
    );
  }
  return (
    <span ref={wrapper} className="confirm-action">
      {warning ? (
        // Polite: a warning that completes once its data arrives (a re-run's) is read again.
        <span id={warningId} className="confirm-action-warning" aria-live="polite">
          {warning}
        </span>
      ) : null}
      <Button
        ref={confirm}
        size={size}
        variant="danger"
        loading={phase === 'running'}
        aria-describedby={warning ? warningId : undefined}
        onKeyDown={onKeyDown}
        onClick={run}
      >
        {confirmLabel}
      </Button>
      <Button
        size={size}
        variant="ghost"
        disabled={phase === 'running'}
        onKeyDown={onKeyDown}
        onClick={cancel}
      >
        Cancel
      </Button>
    </span>
  );
}
