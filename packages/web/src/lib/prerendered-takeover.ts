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

/** Shared by the page's start script (early.js, a bundle of its own) and main.tsx, as early-answers.ts does. */
const HELD_SUBMIT_KEY = '__berthHeldSubmit';

/** How long after the page started a submit is still held for the console to take over. */
export const HOLD_SUBMITS_MS = 15_000;

/** The root the server filled with a prerendered page, while the console has not taken it over. */
const PRERENDERED_ROOT = '#root[data-prerendered]';

/**
 * Called by the start script: a form of the prerendered page submitted while the scripts still load is
 * held rather than posted (a plain post cannot sign in, tokens live in memory), and main.tsx submits
 * React's form once it has taken over. With JavaScript off nothing holds it, and the server answers the post.
 */
export function holdPrerenderedSubmits(): void {
  document.addEventListener(
    'submit',
    (event) => {
      const root = document.querySelector(PRERENDERED_ROOT);
      // A console that has not taken over by now will not (its code failed to load): the post goes
      // through, and the server's answer says what is wrong, rather than a button that does nothing.
      if (performance.now() > HOLD_SUBMITS_MS) return;
      if (!root || !(event.target instanceof Node) || !root.contains(event.target)) return;
      event.preventDefault();
      (globalThis as unknown as Record<string, boolean>)[HELD_SUBMIT_KEY] = true;
    },
    { capture: true },
  );
}

/** True once, when a submit was held before the console took the page over. */
export function takeHeldSubmit(): boolean {
  const page = globalThis as unknown as Record<string, boolean | undefined>;
  const held = page[HELD_SUBMIT_KEY] === true;
  page[HELD_SUBMIT_KEY] = false;
  return held;
}
