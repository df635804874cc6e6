import { act } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HOLD_SUBMITS_MS,
  holdPrerenderedSubmits,
  readTyped,
  restoreTyped,
  routerReady,
  takeHeldSubmit,
} from '../../../lib/prerendered-takeover.ts';
import type { Credentials } from '../api/create-token.ts';
import { CredentialsForm } from './credentials-form.tsx';

// The console taking over the login form the server sent (issue 40): the same component, rendered by
// react-dom/server as the build does, typed into, then replaced by React's own.

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function prerenderedLogin(onSubmit: (credentials: Credentials) => Promise<unknown>) {
  const form = <CredentialsForm submitLabel="Log In" onSubmit={onSubmit} postTo="/login" />;
  const container = document.createElement('div');
  container.id = 'root';
  container.setAttribute('data-prerendered', '');
  container.innerHTML = renderToString(form);
  document.body.append(container);
  return { container, form };
}

const input = (container: HTMLElement, name: string) =>
  container.querySelector(`input[name="${name}"]`) as HTMLInputElement;

describe('taking over a prerendered form', () => {
  it('posts to the page without JavaScript', () => {
    const { container } = prerenderedLogin(async () => {});
    const form = container.querySelector('form') as HTMLFormElement;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/login');
  });

  it('carries the typed values and the focus into the form React renders, and its state has them', async () => {
    const onSubmit = vi.fn(async (_credentials: Credentials) => {});
    const { container, form } = prerenderedLogin(onSubmit);
    const typedEmail = input(container, 'email');
    typedEmail.value = 'ann@example.com';
    input(container, 'password').value = 'secret password';
    typedEmail.focus();

    const typed = readTyped(container);
    const root = createRoot(container);
    flushSync(() => root.render(form));
    restoreTyped(container, typed);

    const email = input(container, 'email');
    expect(email).not.toBe(typedEmail);
    expect(email.value).toBe('ann@example.com');
    expect(input(container, 'password').value).toBe('secret password');
    expect(document.activeElement).toBe(email);

    await act(async () => {
      (container.querySelector('form') as HTMLFormElement).requestSubmit();
    });
    expect(onSubmit).toHaveBeenCalledWith({
      email: 'ann@example.com',
      password: 'secret password',
      otpToken: undefined,
    });
    act(() => root.unmount());
  });

  it('holds a submit while the root is prerendered, and lets React’s through after', () => {
    // The page's clock, early in its life (the test environment's own clock starts when it does, which
    // on a loaded machine is past the hold's limit).
    vi.spyOn(performance, 'now').mockReturnValue(1_000);
    holdPrerenderedSubmits();
    const { container } = prerenderedLogin(async () => {});
    const form = container.querySelector('form') as HTMLFormElement;
    const event = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
    expect(takeHeldSubmit()).toBe(true);
    expect(takeHeldSubmit()).toBe(false);

    container.removeAttribute('data-prerendered');
    const later = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    expect(takeHeldSubmit()).toBe(false);
  });

  it('lets a submit through once the hold has lasted its limit (the console’s code did not load)', () => {
    vi.spyOn(performance, 'now').mockReturnValue(HOLD_SUBMITS_MS + 1);
    holdPrerenderedSubmits();
    const { container } = prerenderedLogin(async () => {});
    const event = new Event('submit', { bubbles: true, cancelable: true });
    (container.querySelector('form') as HTMLFormElement).dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(takeHeldSubmit()).toBe(false);
  });

  it('waits for the router to have loaded the first page', async () => {
    let listener: (state: { initialized: boolean }) => void = () => {};
    const unsubscribe = vi.fn();
    const router = {
      state: { initialized: false },
      subscribe: (next: typeof listener) => {
        listener = next;
        return unsubscribe;
      },
    };
    let ready = false;
    const waiting = routerReady(router).then(() => {
      ready = true;
    });
    listener({ initialized: false });
    await Promise.resolve();
    expect(ready).toBe(false);
    listener({ initialized: true });
    await waiting;
    expect(ready).toBe(true);
    expect(unsubscribe).toHaveBeenCalledOnce();
  });
});
