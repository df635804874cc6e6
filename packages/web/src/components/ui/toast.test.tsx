import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearToasts, showToast, TOAST_LIFETIME_MS, ToastRegion } from './toast.tsx';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  act(() => clearToasts());
  vi.useRealTimers();
});

const later = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('toasts (spec 1 §8)', () => {
  it('announces each message once: a status or an alert, in a region that is not itself live', () => {
    const { container } = render(<ToastRegion />);
    act(() => {
      showToast('Saved changes successfully!');
      showToast('The token could not be refreshed', 'error');
    });
    expect(screen.getByRole('status')).toHaveTextContent('Saved changes successfully!');
    expect(screen.getByRole('alert')).toHaveTextContent('The token could not be refreshed');
    // No live ancestor: a live region inside a live region is read twice.
    for (const live of [screen.getByRole('status'), screen.getByRole('alert')]) {
      expect(live.parentElement?.closest('[aria-live], [role="status"], [role="alert"]')).toBeNull();
    }
    expect(container.querySelector('[aria-live]')).toBeNull();
    // The close button is not part of what is read out.
    expect(within(screen.getByRole('status')).queryByRole('button')).toBeNull();
  });

  it('lets a success toast go after its lifetime, and keeps an error until dismissed', () => {
    render(<ToastRegion />);
    act(() => {
      showToast('Revoked invitation');
      showToast('Membership not found', 'error');
    });
    later(TOAST_LIFETIME_MS);
    expect(screen.queryByText('Revoked invitation')).not.toBeInTheDocument();
    later(10 * TOAST_LIFETIME_MS);
    expect(screen.getByRole('alert')).toHaveTextContent('Membership not found');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Membership not found')).not.toBeInTheDocument();
  });

  it('pauses while hovered or focused, and then runs for the time that was left', () => {
    render(<ToastRegion />);
    act(() => showToast('Resent invitation to user'));
    const toast = () => screen.getByText('Resent invitation to user');

    later(TOAST_LIFETIME_MS - 1000);
    fireEvent.mouseEnter(toast().parentElement as HTMLElement);
    later(10 * TOAST_LIFETIME_MS);
    expect(toast()).toBeInTheDocument();
    fireEvent.mouseLeave(toast().parentElement as HTMLElement);
    later(500);
    expect(toast()).toBeInTheDocument();

    // Focus on its close button pauses it too.
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).focus());
    later(10 * TOAST_LIFETIME_MS);
    expect(toast()).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Dismiss notification' }).blur());
    later(500);
    expect(screen.queryByText('Resent invitation to user')).not.toBeInTheDocument();
  });
});
