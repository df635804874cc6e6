/**
 * Moves focus to an element that may not take focus on its own (a table, a heading): it becomes
 * focusable by script only (tabindex -1), so it does not join the Tab order.
 */
export function focusElement(element: HTMLElement | null | undefined): boolean {
  if (!element?.isConnected) return false;
  if (element.tabIndex < 0 && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
  return true;
}

/** Whether focus has fallen back to the page (its element was removed, say), rather than sitting somewhere. */
export function isFocusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}
