import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';

export interface TableWrapProps {
  /** The table's name: the scroll box's name once it scrolls. */
  label?: string;
  className?: string;
  /** The box itself, for a caller that scrolls it (the virtualized table). */
  scrollRef?: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}

/**
 * The box a table scrolls in when it is wider (or taller) than its card. While it scrolls it is a named
 * region in the Tab order, so a keyboard user can scroll it too (WCAG 2.1.1, issue 41); a table that fits
 * adds no Tab stop.
 */
export function TableWrap({ label, className = 'table-wrap', scrollRef, children }: TableWrapProps) {
  const ownRef = useRef<HTMLDivElement>(null);
  const box = scrollRef ?? ownRef;
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () =>
      setScrolls(
        element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1,
      );
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // The table grows with its rows and columns while the box keeps its size.
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [box]);

  const focusable = scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label ?? 'Table' } : {};
  return (
    <div ref={box} className={className} {...focusable}>
      {children}
    </div>
  );
}
