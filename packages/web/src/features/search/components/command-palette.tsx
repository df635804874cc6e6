import { SEARCH_DEBOUNCE_MS, SEARCH_QUERY_MAX_LENGTH, searchMessages } from '@berth/core';
import {
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { useNavigate } from 'react-router';
import { to } from '../../../lib/paths.ts';
import { SEARCH_TYPE_LABELS } from '../../../resources/search/search-result.hal.ts';
import { useSearch } from '../api/use-search.ts';
import './search.css';

/** Something the palette does besides opening a found resource: a page to go to. */
export interface PaletteAction {
  label: string;
  to: string;
  /** Why the caller may not (the spec's tooltip text): the option is then shown disabled, with it. */
  denial?: string | null;
}

export interface CommandPaletteProps {
  actions: readonly PaletteAction[];
  /** The palette is done: `navigated` when it went to another page (focus then belongs to that page). */
  onClose: (how: { navigated: boolean }) => void;
}

interface Option {
  id: string;
  group: 'Actions' | 'Resources';
  label: ReactNode;
  /** What the option is called for assistive technology and for matching. */
  name: string;
  to: string;
  denial: string | null;
}

/** The text once typing has paused (spec 3 §9: search waits 300 ms). */
function useSettled(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

const FOCUSABLE = 'input, button, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * ⌘K / Ctrl-K (issue 38): a modal dialog to find any resource the user may read, through the server's
 * global search as they type, or to run an action, by keyboard alone. The input keeps focus and points at
 * the highlighted option (the combobox pattern): arrows move, Enter runs, Escape closes and puts focus back
 * where it was. Everything else on the page is inert while it is open, and Tab stays inside.
 */
export function CommandPalette({ actions, onClose }: CommandPaletteProps) {
  const navigate = useNavigate();
  const titleId = useId();
  const listId = useId();
  const statusId = useId();
  const layer = useRef<HTMLDivElement>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  // Read as the palette first renders, before its input takes focus: where Escape sends focus back.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  const returnFocus = useRef(true);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const needle = text.trim();
  const settled = useSettled(needle, SEARCH_DEBOUNCE_MS);
  const search = useSearch(settled);
  // Results are shown, and Enter opens them, only when they answer the text in the box: not while the
  // typing has yet to settle, nor while the settled text's answer is on its way.
  const answered = needle !== '' && settled === needle && !search.isPlaceholderData ? search.data : undefined;

  // The page behind is inert (neither focusable nor read) while the palette is open.
  useLayoutEffect(() => {
    const others = [...document.body.children].filter(
      (element) => element !== layer.current && !element.hasAttribute('inert'),
    );
    for (const element of others) element.setAttribute('inert', '');
    input.current?.focus();
    return () => {
      for (const element of others) element.removeAttribute('inert');
      if (returnFocus.current && opener?.isConnected) opener.focus();
    };
  }, [opener]);

  const lower = needle.toLowerCase();
  const options: Option[] = [
    ...actions
      .filter((action) => action.label.toLowerCase().includes(lower))
      .map((action, index) => ({
        id: `action-${index}`,
        group: 'Actions' as const,
        label: action.label,
        name: action.label,
        to: action.to,
        denial: action.denial ?? null,
      })),
    ...(answered
      ? answered.map((result) => ({
          id: result.key,
          group: 'Resources' as const,
          label: (
            <>
              <span className="search-result-type">{SEARCH_TYPE_LABELS[result.type]}</span>
              <span className="search-result-title">{result.title}</span>
              <span className="search-result-description">{result.description}</span>
            </>
          ),
          name: `${result.title}, ${SEARCH_TYPE_LABELS[result.type]}, ${result.description}`,
          to: result.path,
          denial: null,
        }))
      : []),
    ...(needle
      ? [
          {
            id: 'all-results',
            group: 'Resources' as const,
            label: `See all results for “${needle}”`,
            name: `See all results for “${needle}”`,
            to: to.search(needle),
            denial: null,
          },
        ]
      : []),
  ];
  const current = Math.min(active, options.length - 1);
  const optionId = (option: Option) => `${listId}-${option.id}`;

  // A new text starts at the first option again.
  const [seenNeedle, setSeenNeedle] = useState(needle);
  if (seenNeedle !== needle) {
    setSeenNeedle(needle);
    setActive(0);
  }

  const close = () => onClose({ navigated: false });
  const run = (option: Option | undefined) => {
    // A denied action stays in the list to say why, as a disabled button does; it never runs.
    if (!option || option.denial) return;
    returnFocus.current = false;
    navigate(option.to);
    onClose({ navigated: true });
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (options.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + options.length) % options.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      run(options[current]);
    }
  };

  const onDialogKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const shortcut = event.key.toLowerCase() === 'k' && (event.metaKey || event.ctrlKey);
    if (event.key === 'Escape' || shortcut) {
      event.preventDefault();
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') {
      // Focus stays in the dialog: past its last control it comes back to the first.
      const focusable = [...(dialog.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  const settling = needle !== settled || search.isFetching;
  const resultCount = answered?.length ?? 0;
  const groups = (['Actions', 'Resources'] as const).filter((group) =>
    options.some((option) => option.group === group),
  );

  return createPortal(
    <div className="palette-layer" ref={layer}>
      {/* A click beside the dialog closes it, as Escape does. */}
      <div className="palette-backdrop" aria-hidden="true" onMouseDown={close} />
      <div
        ref={dialog}
        className="palette"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onDialogKeyDown}
      >
        <h2 id={titleId} className="visually-hidden">
          Search and commands
        </h2>
        <div className="palette-header">
          <input
            ref={input}
            className="palette-input"
            type="text"
            role="combobox"
            aria-label="Search resources or type a command"
            aria-expanded={options.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={options[current] ? optionId(options[current]) : undefined}
            aria-describedby={statusId}
            placeholder="Search apps, databases, environments… or type a command"
            autoComplete="off"
            spellCheck={false}
            maxLength={SEARCH_QUERY_MAX_LENGTH}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={onInputKeyDown}
          />
          <button type="button" className="button button-ghost button-sm palette-close" onClick={close}>
            <span>Close</span>
          </button>
        </div>
        <div id={listId} role="listbox" aria-label="Commands and results" className="palette-list">
          {groups.map((group) => (
            // biome-ignore lint/a11y/useSemanticElements: a group of a listbox's options, not of form fields.
            <div key={group} role="group" aria-labelledby={`${listId}-${group}`}>
              <div id={`${listId}-${group}`} className="palette-group-title" role="presentation">
                {group}
              </div>
              {options.map((option, index) =>
                option.group === group ? (
                  <div
                    key={option.id}
                    id={optionId(option)}
                    role="option"
                    aria-selected={index === current}
                    aria-label={option.name}
                    aria-disabled={option.denial ? true : undefined}
                    aria-describedby={option.denial ? `${optionId(option)}-denial` : undefined}
                    className="palette-option"
                    // Reached from the input (aria-activedescendant), never by Tab; a click leaves focus there.
                    tabIndex={-1}
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => index !== current && setActive(index)}
                    onClick={() => run(option)}
                    onKeyDown={onInputKeyDown}
                  >
                    {option.label}
                    {option.denial ? (
                      <span id={`${optionId(option)}-denial`} className="palette-option-denial">
                        {option.denial}
                      </span>
                    ) : null}
                  </div>
                ) : null,
              )}
            </div>
          ))}
        </div>
        <p id={statusId} className="palette-status" role="status">
          {!needle
            ? 'Type to search every resource you can read.'
            : settling
              ? 'Searching…'
              : search.error
                ? `Error: ${search.error.message}`
                : resultCount === 0
                  ? searchMessages.noResults
                  : `${resultCount} ${resultCount === 1 ? 'result' : 'results'}`}
        </p>
        <p className="palette-hints" aria-hidden="true">
          <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to open · <kbd>Esc</kbd> to close
        </p>
      </div>
    </div>,
    document.body,
  );
}
