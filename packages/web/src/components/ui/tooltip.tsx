import { type ReactNode, useId } from 'react';

export interface TooltipTriggerProps {
  'aria-describedby': string;
}

export interface TooltipProps {
  content: string;
  /** A second, plainer line under the content (a denial's plain words, issue 20). */
  detail?: string | null;
  placement?: 'top' | 'right' | 'bottom';
  children: (trigger: TooltipTriggerProps) => ReactNode;
}

/**
 * The tip describes its trigger (so a disabled control still says why) and shows on hover and focus.
 * spec 3 §9: it sits 10 px from the trigger (see --tooltip-offset).
 */
export function Tooltip({ content, detail = null, placement = 'top', children }: TooltipProps) {
  const id = useId();
  return (
    <span className={`tooltip-anchor tooltip-${placement}`}>
      {children({ 'aria-describedby': id })}
      <span className="tooltip" role="tooltip" id={id}>
        {content}
        {detail ? ' ' : null}
        {detail ? <span className="tooltip-detail">{detail}</span> : null}
      </span>
    </span>
  );
}
