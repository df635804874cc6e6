import { SEARCH_DEBOUNCE_MS } from '@berth/core';
import { useEffect, useRef, useState } from 'react';

/**
 * A search box bound to a value kept elsewhere (the query string): the box types freely and `write`
 * follows SEARCH_DEBOUNCE_MS later (spec 3 §9). When the value changes from outside (a link, Back), the
 * box shows it. The box's own write is not from outside: a keystroke typed while it lands stays.
 */
export function useDebouncedDraft(value: string, write: (draft: string) => void) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  const ownWrite = useRef<string | null>(null);
  if (value !== seen) {
    setSeen(value);
    if (value !== ownWrite.current) setDraft(value);
  }
  // Once a new value is in, the box's own write is forgotten (after the render: renders stay pure).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new value, which it does not read
  useEffect(() => {
    ownWrite.current = null;
  }, [value]);
  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => {
      ownWrite.current = draft;
      write(draft);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, write]);
  return [draft, setDraft] as const;
}
