import { type HTMLAttributes, type ReactNode, useEffect, useRef } from 'react';
import { focusElement, isFocusLost } from '../../lib/focus.ts';

const FIELDS = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';
const CONTROLS = `${FIELDS}, button:not(:disabled), a[href]`;

export interface InlinePanelProps extends HTMLAttributes<HTMLDivElement> {
  children: ReactNode;
  /** Closes the panel (Escape). */
  onClose: () => void;
  /**
   * Where focus goes back to when the panel closes. By default the element that had focus when it
   * opened (the button that opened it), when that is still on the page.
   */
  returnFocus?: () => HTMLElement | null | undefined;
}

/**
 * A panel opened inside the page (Deploy, Edit Policy), issue 41: focus moves into it when it opens (its
 * first field, else its first control), Escape closes it, and focus goes back to the opener, so a
 * keyboard user is never left on the page body.
 */
export function InlinePanel({ children, onClose, returnFocus, ...rest }: InlinePanelProps) {
  const panel = useRef<HTMLDivElement>(null);
  // The latest callback, read when the panel closes (the effect below runs once, on open).
  const returnFocusRef = useRef(returnFocus);
  returnFocusRef.current = returnFocus;
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const element = panel.current;
    const target =
      element?.querySelector<HTMLElement>(FIELDS) ?? element?.querySelector<HTMLElement>(CONTROLS);
    focusElement(target ?? element);
    // A listener of the panel itself: the panel is no control, so it has no keyboard handler of React's.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      event.stopPropagation();
      onCloseRef.current();
    };
    element?.addEventListener('keydown', onKeyDown);
    return () => {
      element?.removeEventListener('keydown', onKeyDown);
      // Passive cleanup runs once the panel left the page: only rescue a focus that fell with it.
      if (!isFocusLost()) return;
      const back = returnFocusRef.current?.() ?? opener;
      if (back?.isConnected) back.focus();
    };
  }, []);

  return (
    <div ref={panel} {...rest}>
      {children}
    </div>
  );
}
