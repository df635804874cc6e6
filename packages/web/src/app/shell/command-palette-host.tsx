import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import type { PaletteAction } from '../../features/search/components/command-palette.tsx';
import { focusElement } from '../../lib/focus.ts';

// Loaded on first open: none of the palette's code is in the signed-in page's first chunks (nor, the
// shell being signed-in only, in the login page's).
const CommandPalette = lazy(async () => ({
  default: (await import('../../features/search/components/command-palette.tsx')).CommandPalette,
}));

/** Fetches the palette's code ahead, when the pointer or focus reaches its launcher. */
export function preloadCommandPalette(): void {
  void import('../../features/search/components/command-palette.tsx');
}

/** ⌘K on a Mac, Ctrl-K elsewhere (either is taken). */
function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (
    event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey
  );
}

/**
 * The ⌘K palette of every signed-in page: the shortcut opens it anywhere in the shell (the browser's own
 * use of Ctrl-K gives way), and `open` opens it from the side navigation's search launcher.
 */
export function useCommandPalette(actions: readonly PaletteAction[]): {
  open: () => void;
  element: ReactNode;
} {
  const [isOpen, setOpen] = useState(false);
  // Set when the palette leaves for another page: once it is gone (and the page no longer inert), focus
  // goes to that page's content, as a link followed would.
  const focusContent = useRef(false);
  useEffect(() => {
    if (isOpen || !focusContent.current) return;
    focusContent.current = false;
    focusElement(document.getElementById('main'));
  }, [isOpen]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // The open palette answers the shortcut itself (it closes), and says so by preventing the default.
      if (!isPaletteShortcut(event) || event.defaultPrevented) return;
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  const element = isOpen ? (
    <Suspense fallback={null}>
      <CommandPalette
        actions={actions}
        onClose={({ navigated }) => {
          focusContent.current = navigated;
          setOpen(false);
        }}
      />
    </Suspense>
  ) : null;
  return { open: () => setOpen(true), element };
}
