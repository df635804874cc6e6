import { type FocusEvent, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import './toast.css';

// spec 1 §8 "Success toasts": short confirmations that outlive the page that caused them (an invite
// is confirmed on the pending invitations page it leads to), so they live in a store, not in a page.

export type ToastVariant = 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  variant: ToastVariant;
}

/** How long a success toast stays while nobody points at it or focuses it. */
export const TOAST_LIFETIME_MS = 6000;

let toasts: readonly Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function publish(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

export function dismissToast(id: number): void {
  publish(toasts.filter((toast) => toast.id !== id));
}

/** Removes every toast (a test starts with none). */
export function clearToasts(): void {
  publish([]);
}

/**
 * Shows a toast. A success toast leaves after a few seconds (paused while hovered or focused); an error
 * stays until dismissed, so nobody misses what went wrong (WCAG 2.2.1).
 */
export function showToast(message: string, variant: ToastVariant = 'success'): void {
  publish([...toasts, { id: nextId++, message, variant }]);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  // The same on the server (the build's prerender): none yet.
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const remaining = useRef(TOAST_LIFETIME_MS);
  const paused = hovered || focused;

  useEffect(() => {
    if (toast.variant === 'error' || paused) return;
    const started = Date.now();
    const timer = setTimeout(() => dismissToast(toast.id), remaining.current);
    return () => {
      clearTimeout(timer);
      // A pause keeps the time left, so pointing at a toast never makes it last less.
      remaining.current = Math.max(0, remaining.current - (Date.now() - started));
    };
  }, [toast.id, toast.variant, paused]);

  const blur = (event: FocusEvent<HTMLDivElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover and focus only pause the timer.
    <div
      className={`toast toast-${toast.variant}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={blur}
    >
      {/* The message alone is the live region, so the close button is not read out with it. */}
      <span className="toast-message" role={toast.variant === 'error' ? 'alert' : 'status'}>
        {toast.message}
      </span>
      <button
        type="button"
        className="toast-close"
        aria-label="Dismiss notification"
        onClick={() => dismissToast(toast.id)}
      >
        ×
      </button>
    </div>
  );
}

/** The one place toasts appear, rendered once at the root of the console. */
export function ToastRegion() {
  const current = useToasts();
  // No aria-live here: each message is its own status (or alert), announced once. The region has no
  // role of its own either (pages look up their own alerts by role).
  return (
    <div className="toast-region">
      {current.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
