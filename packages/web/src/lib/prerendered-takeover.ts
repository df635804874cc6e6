/**
 * The console taking over a page the server sent with its form already drawn (build/prerender.ts): what
 * the visitor typed there before the scripts arrived, and where the focus was, carried into the form
 * React renders in its place.
 */
export interface TypedState {
  values: Map<string, string>;
  focused: { name: string; start: number | null; end: number | null } | null;
}

type Field = HTMLInputElement | HTMLTextAreaElement;

function namedFields(container: HTMLElement): Field[] {
  return Array.from(container.querySelectorAll<Field>('input[name], textarea[name]')).filter(
    (field) => !(field instanceof HTMLInputElement && ['checkbox', 'radio', 'hidden'].includes(field.type)),
  );
}

/** Email and password inputs refuse selection ranges; their caret stays where focus puts it. */
function selectionOf(field: Field): { start: number | null; end: number | null } {
  try {
    return { start: field.selectionStart, end: field.selectionEnd };
  } catch {
    return { start: null, end: null };
  }
}

export function readTyped(container: HTMLElement): TypedState {
  const values = new Map<string, string>();
  for (const field of namedFields(container)) if (field.value !== '') values.set(field.name, field.value);
  const active = document.activeElement;
  const focused =
    (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement) &&
    active.name !== '' &&
    container.contains(active)
      ? { name: active.name, ...selectionOf(active) }
      : null;
  return { values, focused };
}

/**
 * Writes the values into React's fields as typing would: through the element's own value setter (React
 * tracks the last value it saw) and an input event, so the form's state (react-hook-form) has them too.
 */
export function restoreTyped(container: HTMLElement, typed: TypedState): void {
  const fields = namedFields(container);
  for (const [name, value] of typed.values) {
    const field = fields.find((candidate) => candidate.name === name);
    if (!field || field.value === value) continue;
    const prototype =
      field instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
    Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const focused = typed.focused && fields.find((candidate) => candidate.name === typed.focused?.name);
  if (!focused || !typed.focused) return;
  focused.focus({ preventScroll: true });
  const { start, end } = typed.focused;
  if (start !== null && end !== null) {
    try {
      focused.setSelectionRange(start, end);
    } catch {
      // A field type without selection: the caret is at the end, where typing left it.
    }
  }
}

/** Resolves once the router has loaded the first page's code (its lazy routes), so that page renders at once. */
export function routerReady(router: {
  state: { initialized: boolean };
  subscribe(listener: (state: { initialized: boolean }) => void): () => void;
}): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
