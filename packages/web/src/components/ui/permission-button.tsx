import type { MouseEvent } from 'react';
import { Button, type ButtonProps } from './button.tsx';
import { Tooltip } from './tooltip.tsx';

export interface ScopedButtonProps extends ButtonProps {
  /**
   * Why the caller may not act (`useActionDenial`, or another core rule's message), or null when they may.
   * spec 3 §2: a button lacking the scope stays visible, disabled, with the reason as its tooltip.
   */
  denial: string | null;
}

/**
 * A button gated by a permission rule. When denied it is marked `aria-disabled` rather than natively
 * disabled, so keyboard users can still focus it and hear the rule's message (its tooltip); clicks and
 * form submission are ignored while denied.
 */
export function ScopedButton({ denial, disabled, onClick, ...rest }: ScopedButtonProps) {
  if (denial === null) return <Button disabled={disabled} onClick={onClick} {...rest} />;
  const ignore = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <Tooltip content={denial}>
      {(trigger) => (
        <Button {...rest} {...trigger} type="button" aria-disabled="true" onClick={ignore} loading={false} />
      )}
    </Tooltip>
  );
}
