import { envChanges, envRowProblems } from '@berth/core';
import { useState } from 'react';
import { type Resolver, useFieldArray } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form, SubmitRow } from '../../../components/ui/form.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { resolverOf, useRulesForm } from '../../../components/ui/rules-form.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import './apps.css';

// Written once in core, shared with the guided deploy's configure step.
export { envChanges };

export interface ConfigurationEditorProps {
  current: Readonly<Record<string, string | null>>;
  /** Names of the variables marked sensitive (issue 41): their values are never shown again. */
  sensitiveKeys: readonly string[];
  /** Why the caller may not configure (action app.configure), or null. */
  denial: string | null;
  /** Saves the changes (contract §4.3: "" removes a variable) after marking `markSensitive`. */
  onSave: (changes: Record<string, string>, markSensitive: string[]) => Promise<unknown>;
}

/**
 * The app's configuration (issues 20 and 41): its variables listed with their values hidden, each revealed
 * on its own (or all at once), and edited as key/value rows only when asked. A sensitive variable's value
 * is never in the page once saved: it can only be replaced or removed. An app without variables opens on
 * the editor.
 */
export function ConfigurationEditor(props: ConfigurationEditorProps) {
  const keys = Object.entries(props.current)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([key]) => key)
    .sort((a, b) => a.localeCompare(b));
  const [editing, setEditing] = useState(keys.length === 0);
  if (editing) {
    return (
      <ConfigurationRows
        {...props}
        keys={keys}
        onSave={async (changes, markSensitive) => {
          await props.onSave(changes, markSensitive);
          setEditing(false);
        }}
        onCancel={keys.length ? () => setEditing(false) : undefined}
      />
    );
  }
  return (
    <MaskedVariables
      current={props.current}
      keys={keys}
      sensitiveKeys={props.sensitiveKeys}
      denial={props.denial}
      onEdit={() => setEditing(true)}
    />
  );
}

const MASK = '••••••••';

/** Says a value is hidden, to sight and to assistive technology. */
function HiddenValue({ sensitive }: { sensitive: boolean }) {
  return sensitive ? (
    <span className="env-locked">Sensitive: hidden</span>
  ) : (
    <>
      <span aria-hidden="true">{MASK}</span>
      <span className="visually-hidden">hidden</span>
    </>
  );
}

/** Toggles one key in a set (the rows revealed). */
function toggled(set: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(set);
  if (next.has(key)) next.delete(key);
  else next.add(key);
  return next;
}

function MaskedVariables({
  current,
  keys,
  sensitiveKeys,
  denial,
  onEdit,
}: {
  current: Readonly<Record<string, string | null>>;
  keys: readonly string[];
  sensitiveKeys: readonly string[];
  denial: string | null;
  onEdit: () => void;
}) {
  const sensitive = new Set(sensitiveKeys);
  const revealable = keys.filter((key) => !sensitive.has(key));
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const all = revealable.length > 0 && revealable.every((key) => revealed.has(key));
  return (
    <div className="section-stack">
      <div className="row-actions">
        {revealable.length > 0 ? (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setRevealed(all ? new Set() : new Set(revealable))}
          >
            {all ? 'Hide All' : 'Reveal All'}
          </Button>
        ) : null}
        <ScopedButton variant="primary" size="sm" denial={denial} onClick={onEdit}>
          Edit Variables
        </ScopedButton>
      </div>
      <StaticTable
        caption="Environment variables"
        columns={['Key', 'Value', { label: 'Actions', hidden: true }]}
      >
        {keys.map((key) => {
          const locked = sensitive.has(key);
          const shown = !locked && revealed.has(key);
          return (
            <tr key={key}>
              <td>
                <code>{key}</code>
              </td>
              <td className="env-value">
                {shown ? <code>{current[key]}</code> : <HiddenValue sensitive={locked} />}
              </td>
              <td>
                {locked ? null : (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-pressed={shown}
                    onClick={() => setRevealed((now) => toggled(now, key))}
                  >
                    {shown ? `Hide ${key}` : `Reveal ${key}`}
                  </Button>
                )}
              </td>
            </tr>
          );
        })}
      </StaticTable>
    </div>
  );
}

/** A row of the editor. A locked row is a saved sensitive variable: its value is not in the form. */
interface EnvRow {
  key: string;
  value: string;
  sensitive: boolean;
  /** Saved on the server: its key is fixed (renaming is removing and adding). */
  saved: boolean;
  locked: boolean;
  replacing: boolean;
}
interface EnvRowsValues {
  rows: EnvRow[];
}

const blankRow = (): EnvRow => ({
  key: '',
  value: '',
  sensitive: false,
  saved: false,
  locked: false,
  replacing: false,
});

const filled = (row: EnvRow) => row.locked || row.key !== '' || row.value !== '';

// Core's rules (spec 2 §5 key messages, and a value for each key) block the save; they show while typing.
const rowsResolver: Resolver<EnvRowsValues, unknown, EnvRowsValues> = resolverOf<EnvRowsValues>((values) => {
  const [first] = envRowProblems(values.rows);
  return first ? { rows: first } : {};
});

/**
 * spec 2 §2 and §5, issue 41: environment variables edited as key/value rows, each with a sensitive
 * toggle. A saved non-sensitive value stays masked until its row is revealed; a saved sensitive one is a
 * locked placeholder, replaced by typing a new value or removed with its row, and left as it is on the
 * server otherwise.
 */
function ConfigurationRows({
  current,
  keys,
  sensitiveKeys,
  denial,
  onSave,
  onCancel,
}: ConfigurationEditorProps & { keys: readonly string[]; onCancel: (() => void) | undefined }) {
  const sensitive = new Set(sensitiveKeys);
  const [notice, setNotice] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<string>>(new Set());
  const form = useRulesForm(rowsResolver, {
    defaultValues: {
      rows: keys.length
        ? keys.map((key) => {
            const locked = sensitive.has(key);
            // A locked row never holds the value: it is not ours to show.
            return {
              key,
              value: locked ? '' : (current[key] ?? ''),
              sensitive: locked,
              saved: true,
              locked,
              replacing: false,
            };
          })
        : [blankRow()],
    },
    blocked: denial !== null,
    onSubmit: async ({ rows }) => {
      setNotice(null);
      const kept = rows.filter(filled);
      const entries = kept.map((row) => ({
        key: row.key,
        // An untouched locked value is sent as it is: envChanges leaves it out of the changes.
        value: row.locked && !row.replacing ? (current[row.key] ?? '') : row.value,
      }));
      const changes = envChanges(current, entries);
      const markSensitive = kept
        // Every ticked row that is not a saved sensitive one: a name the server holds already is kept
        // once (it ignores repeats), and a cached list that is behind cannot leave a new value unmarked.
        .filter((row) => row.sensitive && !row.locked)
        .map((row) => row.key);
      if (Object.keys(changes).length === 0 && markSensitive.length === 0) {
        setNotice('No changes to save');
        return;
      }
      await onSave(changes, markSensitive);
    },
  });
  const { fields, append, remove, update } = useFieldArray({ control: form.control, name: 'rows' });
  const rows = form.watch('rows');
  const problems = envRowProblems(rows);

  return (
    <Form form={form}>
      {notice ? <Banner variant="info">{notice}</Banner> : null}
      <StaticTable
        caption="Environment Variables"
        className="env-rows"
        columns={['Key', 'Value', 'Sensitive', { label: 'Actions', hidden: true }]}
      >
        {fields.map((field, index) => {
          const row = rows[index] ?? blankRow();
          const name = row.saved ? row.key : `new variable ${index + 1}`;
          const shown = revealed.has(field.id);
          return (
            <tr key={field.id}>
              <td>
                {row.saved ? (
                  <code>{row.key}</code>
                ) : (
                  <input
                    className="input env-key-input"
                    aria-label={`Key of ${name}`}
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="KEY"
                    {...form.register(`rows.${index}.key`)}
                  />
                )}
              </td>
              <td className="env-value">
                {row.locked && !row.replacing ? (
                  <div className="env-value-cell">
                    <HiddenValue sensitive />
                    <Button
                      variant="secondary"
                      size="sm"
                      aria-label={`Replace ${name}`}
                      onClick={() => update(index, { ...row, replacing: true, value: '' })}
                    >
                      Replace
                    </Button>
                  </div>
                ) : row.locked ? (
                  <div className="env-value-cell">
                    <textarea
                      className="input env-value-input"
                      aria-label={`New value of ${name}`}
                      rows={1}
                      autoComplete="off"
                      spellCheck={false}
                      {...form.register(`rows.${index}.value`)}
                    />
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Keep ${name}`}
                      onClick={() => update(index, { ...row, replacing: false, value: '' })}
                    >
                      Keep
                    </Button>
                  </div>
                ) : row.saved && !shown ? (
                  <div className="env-value-cell">
                    <HiddenValue sensitive={false} />
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-pressed={false}
                      aria-label={`Reveal ${name}`}
                      onClick={() => setRevealed((now) => toggled(now, field.id))}
                    >
                      Reveal
                    </Button>
                  </div>
                ) : (
                  <div className="env-value-cell">
                    <textarea
                      className="input env-value-input"
                      aria-label={`Value of ${name}`}
                      rows={1}
                      autoComplete="off"
                      spellCheck={false}
                      {...form.register(`rows.${index}.value`)}
                    />
                    {row.saved ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-pressed
                        aria-label={`Hide ${name}`}
                        onClick={() => setRevealed((now) => toggled(now, field.id))}
                      >
                        Hide
                      </Button>
                    ) : null}
                  </div>
                )}
              </td>
              <td>
                <input
                  type="checkbox"
                  className="env-sensitive"
                  aria-label={`Sensitive ${name}`}
                  disabled={row.locked}
                  title={
                    row.locked
                      ? 'A sensitive variable stays sensitive, under this name, for good'
                      : 'Once saved, the console never shows this value again'
                  }
                  {...form.register(`rows.${index}.sensitive`)}
                />
              </td>
              <td>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove ${name}`}
                  onClick={() => {
                    remove(index);
                    if (fields.length === 1) append(blankRow());
                  }}
                >
                  Remove
                </Button>
              </td>
            </tr>
          );
        })}
      </StaticTable>
      <div className="row-actions">
        <Button variant="secondary" size="sm" onClick={() => append(blankRow())}>
          Add Variable
        </Button>
      </div>
      <p className="field-hint">
        A sensitive value is never shown again once saved: it can only be replaced or removed. Values may span
        lines.
      </p>
      <ul className="env-problems" aria-live="polite">
        {problems.map((problem) => (
          <li key={problem} className="field-error">
            {problem}
          </li>
        ))}
      </ul>
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
