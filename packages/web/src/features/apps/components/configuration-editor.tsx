import { envChanges, formatEnvText, parseEnvText } from '@berth/core';
import { useId, useState } from 'react';
import { z } from 'zod';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import './apps.css';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';

/** The editor's text parsed by core's KEY=value rules (spec 2 §5): its entries, or each problem. */
const envTextForm = z.object({
  text: z.string().transform((text, ctx) => {
    const parsed = parseEnvText(text);
    for (const message of parsed.problems) ctx.addIssue({ code: 'custom', message });
    return parsed.entries;
  }),
});

// Written once in core, shared with the guided deploy's configure step.
export { envChanges };

export interface ConfigurationEditorProps {
  current: Readonly<Record<string, string | null>>;
  /** Why the caller may not configure (action app.configure), or null. */
  denial: string | null;
  onSave: (changes: Record<string, string>) => Promise<unknown>;
}

/**
 * The app's configuration (issue 20): its variables listed with their values hidden, each revealed on
 * its own (or all at once), and edited as text only when asked. A value is not in the page until it is
 * revealed or the editor is opened. An app without variables opens on the editor.
 */
export function ConfigurationEditor(props: ConfigurationEditorProps) {
  const keys = Object.entries(props.current)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key]) => key)
    .sort((a, b) => a.localeCompare(b));
  const [editing, setEditing] = useState(keys.length === 0);
  if (editing) {
    return <ConfigurationText {...props} onCancel={keys.length ? () => setEditing(false) : undefined} />;
  }
  return (
    <MaskedVariables
      current={props.current}
      keys={keys}
      denial={props.denial}
      onEdit={() => setEditing(true)}
    />
  );
}

const MASK = '••••••••';

function MaskedVariables({
  current,
  keys,
  denial,
  onEdit,
}: {
  current: Readonly<Record<string, string | null>>;
  keys: readonly string[];
  denial: string | null;
  onEdit: () => void;
}) {
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const all = revealed.size === keys.length;
  const toggle = (key: string) =>
    setRevealed((shown) => {
      const next = new Set(shown);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  return (
    <div className="section-stack">
      <div className="row-actions">
        <Button variant="secondary" size="sm" onClick={() => setRevealed(all ? new Set() : new Set(keys))}>
          {all ? 'Hide All' : 'Reveal All'}
        </Button>
        <ScopedButton variant="primary" size="sm" denial={denial} onClick={onEdit}>
          Edit Variables
        </ScopedButton>
      </div>
      <StaticTable
        caption="Environment variables"
        columns={['Key', 'Value', { label: 'Actions', hidden: true }]}
      >
        {keys.map((key) => {
          const shown = revealed.has(key);
          return (
            <tr key={key}>
              <td>
                <code>{key}</code>
              </td>
              <td className="env-value">
                {shown ? (
                  <code>{current[key]}</code>
                ) : (
                  <>
                    <span aria-hidden="true">{MASK}</span>
                    <span className="visually-hidden">hidden</span>
                  </>
                )}
              </td>
              <td>
                <Button variant="ghost" size="sm" aria-pressed={shown} onClick={() => toggle(key)}>
                  {shown ? `Hide ${key}` : `Reveal ${key}`}
                </Button>
              </td>
            </tr>
          );
        })}
      </StaticTable>
    </div>
  );
}

/**
 * spec 2 §2 and §5: environment variables edited as KEY=value text, multiline values in double quotes.
 * The spec's key messages show while typing and block the save, so nothing bad is sent.
 */
function ConfigurationText({
  current,
  denial,
  onSave,
  onCancel,
}: ConfigurationEditorProps & { onCancel: (() => void) | undefined }) {
  const id = useId();
  // Keys in alphabetical order: the server's storage does not keep the order they were typed in.
  const [notice, setNotice] = useState<string | null>(null);
  const form = useSchemaForm(envTextForm, {
    defaultValues: {
      text: formatEnvText(Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)))),
    },
    blocked: denial !== null,
    onSubmit: async ({ text: entries }) => {
      setNotice(null);
      const changes = envChanges(current, entries);
      if (Object.keys(changes).length === 0) {
        setNotice('No changes to save');
        return;
      }
      await onSave(changes);
    },
  });
  // The problems show while typing (not only after a submit), so nothing bad is ever sent.
  const problems = parseEnvText(form.watch('text')).problems;

  return (
    <Form form={form}>
      {notice ? <Banner variant="info">{notice}</Banner> : null}
      <div className="field">
        <label className="field-label" htmlFor={id}>
          Environment Variables
        </label>
        <textarea
          id={id}
          className="input env-editor"
          rows={12}
          spellCheck={false}
          placeholder={'KEY=value\nMULTILINE="first line\nsecond line"'}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={`${id}-hint ${id}-problems`}
          {...form.register('text')}
        />
        <p className="field-hint" id={`${id}-hint`}>
          One KEY=value per line. Wrap multiline values in double quotes. Removing a line removes the
          variable.
        </p>
        <ul className="env-problems" id={`${id}-problems`} aria-live="polite">
          {problems.map((problem) => (
            <li key={problem} className="field-error">
              {problem}
            </li>
          ))}
        </ul>
      </div>
      <SubmitRow
        denial={denial}
        disabled={problems.length > 0}
        {...(onCancel ? { onCancel, cancelLabel: 'Cancel' } : {})}
      >
        Save Configuration
      </SubmitRow>
    </Form>
  );
}
