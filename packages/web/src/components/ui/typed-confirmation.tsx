import { type ReactNode, useState } from 'react';
import { messageOf } from '../../lib/error-message.ts';
import { Banner } from './banner.tsx';
import { ScopedButton } from './permission-button.tsx';
import { TextField } from './text-field.tsx';
import './resource-page.css';

export interface TypedConfirmationProps {
  /** The heading and the card's accessible name, e.g. "Delete Role". */
  title: string;
  /** The danger button's text (and name); the title by default. */
  actionLabel?: string;
  /** The explanation under the heading (before any failure), or nothing. */
  description?: ReactNode;
  /** Notices shown under the heading, before the description and the failure (e.g. a warning Banner). */
  notices?: ReactNode;
  /** Content shown after the failure, just above the field (e.g. the "Type … to confirm" prompt). */
  children?: ReactNode;
  /** The text that must be typed (spec 2 §5). An empty expected text never confirms. */
  expected: string;
  /** Replaces the exact comparison with `expected` (e.g. a core rule); still false while expected is empty. */
  matches?: (typed: string) => boolean;
  /** The field's label (and accessible name). */
  fieldLabel: string;
  /** Why the caller may not act (`useActionDenial`), or null: the button's tooltip. */
  denial: string | null;
  /** Whether a denial also disables the field (true by default). */
  lockFieldWhenDenied?: boolean;
  /** Another rule forbids the action (e.g. a certificate still in use): field and button disabled. */
  blocked?: boolean;
  /**
   * A `section` (region, the button acts on click) or a `form` (the button submits; Enter in the field
   * submits only once confirmed).
   */
  as?: 'section' | 'form';
  /** Runs the action; a rejection's message is shown as it is. */
  onConfirm: () => Promise<unknown>;
}

/**
 * A destructive action confirmed by typing an exact text: a card with its heading and explanation, the
 * failure, the field, and a danger button disabled until the typed text matches, loading while it runs.
 */
export function TypedConfirmation({
  title,
  actionLabel = title,
  description,
  notices,
  children,
  expected,
  matches,
  fieldLabel,
  denial,
  lockFieldWhenDenied = true,
  blocked = false,
  as = 'section',
  onConfirm,
}: TypedConfirmationProps) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmed = !blocked && expected !== '' && (matches ? matches(typed) : typed === expected);

  const confirm = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onConfirm();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  const content = (
    <>
      <h2 className="section-title">{title}</h2>
      {notices}
      {description ? <p>{description}</p> : null}
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {children}
      <TextField
        label={fieldLabel}
        autoComplete="off"
        spellCheck={false}
        value={typed}
        disabled={(lockFieldWhenDenied && denial !== null) || blocked}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div>
        <ScopedButton
          type={as === 'form' ? 'submit' : 'button'}
          variant="danger"
          denial={denial}
          disabled={!confirmed}
          loading={busy}
          onClick={as === 'form' ? undefined : () => void confirm()}
        >
          {actionLabel}
        </ScopedButton>
      </div>
    </>
  );

  if (as === 'form') {
    return (
      <form
        className="card card-body form"
        aria-label={title}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (confirmed && denial === null && !busy) void confirm();
        }}
      >
        {content}
      </form>
    );
  }
  return (
    <section className="card card-body section-stack" aria-label={title}>
      {content}
    </section>
  );
}
