import { useSyncExternalStore } from 'react';
import './toast.css';

// spec 1 §8 "Success toasts": short confirmations that outlive the page that caused them (an invite
// is confirmed on the pending invitations page it leads to), so they live in a store, not in a page.

export type ToastVariant = 'success' | 'error';

export interface Toast {
  id: number;
  message: string;
  variant: ToastVariant;
}

const TOAST_LIFETIME_MS = 6000;

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

/** Shows a toast for a few seconds (or until dismissed). */
export function showToast(message: string, variant: ToastVariant = 'success'): void {
  const id = nextId++;
  publish([...toasts, { id, message, variant }]);
  setTimeout(() => dismissToast(id), TOAST_LIFETIME_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(subscribe, () => toasts);
}

/** The one place toasts appear, rendered once at the root of the console. */
export function ToastRegion() {
  const current = useToasts();
  // A live region that exists before its first toast, so screen readers hear each one. It has no role of
  // its own (pages look up their own alerts by role); each toast is a status, or an alert when it failed.
  return (
    <div className="toast-region" aria-live="polite">
      {current.map((toast) => (
        <div
          key={toast.id}
          className={`toast toast-${toast.variant}`}
          role={toast.variant === 'error' ? 'alert' : 'status'}
        >
          <span className="toast-message">{toast.message}</span>
          <button
            type="button"
            className="toast-close"
            aria-label="Dismiss notification"
            onClick={() => dismissToast(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
