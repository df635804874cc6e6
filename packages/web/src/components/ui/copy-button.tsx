import { useEffect, useRef, useState } from 'react';
import { Button } from './button.tsx';

/** spec 2 §9: how long the copy button reads Copied!. */
export const COPIED_FOR_MS = 1500;

/**
 * Copies a text to the clipboard; the button reads Copied! for 1.5 s afterwards (spec 2 §9).
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <Button
      size="sm"
      variant="secondary"
      aria-label={copied ? 'Copied!' : label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          setFailed(false);
          setCopied(true);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => setCopied(false), COPIED_FOR_MS);
        } catch {
          setFailed(true);
        }
      }}
    >
      {copied ? 'Copied!' : failed ? 'Copy failed' : 'Copy'}
    </Button>
  );
}
