import { plainDenial } from '@berth/core';
import type { MouseEvent } from 'react';
import { useEnvironmentName } from '../../lib/environment-names.tsx';
import { Button, ButtonLink, type ButtonLinkProps, type ButtonProps } from './button.tsx';
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
  const environmentName = useEnvironmentName();
  if (denial === null) return <Button disabled={disabled} onClick={onClick} {...rest} />;
  const ignore = (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    event.stopPropagation();
  };
  return (
    <Tooltip content={denial} detail={plainDenial(denial, environmentName)}>
      {(trigger) => (
        <Button {...rest} {...trigger} type="button" aria-disabled="true" onClick={ignore} loading={false} />
      )}
    </Tooltip>
  );
}

export interface ScopedButtonLinkProps extends ButtonLinkProps {
  /** As ScopedButton's: when set, the link becomes that disabled button with the reason as its tooltip. */
  denial: string | null;
}

/** Navigation to a gated action (New App, New Endpoint): a button link when allowed, else a ScopedButton. */
export function ScopedButtonLink({
  denial,
  to,
  variant,
  size,
  block,
  icon,
  className,
  children,
}: ScopedButtonLinkProps) {
  const style = { variant, size, block, icon, className };
  if (!denial) {
    return (
      <ButtonLink to={to} {...style}>
        {children}
      </ButtonLink>
    );
  }
  return (
    <ScopedButton denial={denial} {...style}>
      {children}
    </ScopedButton>
  );
}
