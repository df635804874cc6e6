import { Button, type ButtonProps } from './button.tsx';
import { Tooltip } from './tooltip.tsx';

export interface ScopedButtonProps extends ButtonProps {
  /**
   * Why the caller may not act (core `scopeDenial`, or another rule's message), or null when they may.
   * spec 3 §2: a button lacking the scope stays visible, disabled, with the reason as its tooltip.
   */
  denial: string | null;
}

/** A button gated by a permission rule: disabled with the rule's message as its tooltip when denied. */
export function ScopedButton({ denial, disabled, ...rest }: ScopedButtonProps) {
  if (denial === null) return <Button disabled={disabled} {...rest} />;
  return <Tooltip content={denial}>{(trigger) => <Button {...rest} {...trigger} disabled />}</Tooltip>;
}
