import { plainDenial } from '@berth/core';
import { type InputHTMLAttributes, type MouseEvent, useId } from 'react';
import { useEnvironmentName } from '../../lib/environment-names.tsx';
import type { TooltipProps } from './tooltip.tsx';

export interface ScopedCheckboxProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'disabled' | 'checked' | 'onChange'> {
  checked: boolean;
  onChange: () => void;
  /** Why the box cannot change (a rule's text, shown as its tooltip and description), or null. */
  denial: string | null;
  /** Locked without a reason to tell (a request in flight, a value implied by another): no tooltip. */
  locked?: boolean;
  placement?: TooltipProps['placement'];
}

/**
 * The checkbox twin of ScopedButton: when locked it is marked `aria-disabled` rather than natively
 * disabled, so keyboard users still reach it and hear why (its tooltip); clicks and Space are ignored.
 * The tree is the same whether locked or not, so focus survives a change of lock.
 */
export function ScopedCheckbox({
  checked,
  onChange,
  denial,
  locked = false,
  placement = 'top',
  onClick,
  'aria-describedby': describedBy,
  ...rest
}: ScopedCheckboxProps) {
  const tipId = useId();
  const environmentName = useEnvironmentName();
  const blocked = denial !== null || locked;
  const plain = denial ? plainDenial(denial, environmentName) : null;
  const click = (event: MouseEvent<HTMLInputElement>) => {
    // Not preventDefault: on a controlled checkbox it fights React's own restore and flips the box.
    // Ignoring the change is enough, React puts `checked` back (a label's click lands here too).
    if (!blocked) onClick?.(event);
  };
  return (
    <span className={`tooltip-anchor tooltip-${placement}`}>
      <input
        {...rest}
        type="checkbox"
        checked={checked}
        aria-disabled={blocked || undefined}
        aria-describedby={denial ? tipId : describedBy}
        onClick={click}
        onChange={() => {
          if (!blocked) onChange();
        }}
      />
      {denial ? (
        <span className="tooltip" role="tooltip" id={tipId}>
          {denial}
          {plain ? ' ' : null}
          {plain ? <span className="tooltip-detail">{plain}</span> : null}
        </span>
      ) : null}
    </span>
  );
}
