import { formatEnvText, parseEnvText } from '@berth/core';
import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import './apps.css';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';

/**
 * What a configure operation must send to turn `current` into `entries` (contract §4.3 configuration):
 * new or changed keys with their value, removed keys as "".
 */
export function envChanges(
  current: Readonly<Record<string, string | null>>,
  entries: readonly { key: string; value: string }[],
): Record<string, string> {
  const changes: Record<string, string> = {};
  const next = new Map(entries.map((entry) => [entry.key, entry.value]));
  for (const [key, value] of next) if (current[key] !== value) changes[key] = value;
  for (const [key, value] of Object.entries(current)) {
    if (value !== null && !next.has(key)) changes[key] = '';
  }
  return changes;
}

export interface ConfigurationEditorProps {
  current: Readonly<Record<string, string | null>>;
  /** Why the caller may not configure (action app.configure), or null. */
  denial: string | null;
  onSave: (changes: Record<string, string>) => Promise<unknown>;
}

/**
 * spec 2 §2 and §5: environment variables edited as KEY=value text, multiline values in double quotes.
 * The spec's key messages show while typing and block the save, so nothing bad is sent.
 */
export function ConfigurationEditor({ current, denial, onSave }: ConfigurationEditorProps) {
  const id = useId();
  // Keys in alphabetical order: the server's storage does not keep the order they were typed in.
  const [text, setText] = useState(() =>
    formatEnvText(Object.fromEntries(Object.entries(current).sort(([a], [b]) => a.localeCompare(b)))),
  );
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const parsed = parseEnvText(text);

  const save = async () => {
    setFailure(null);
    setNotice(null);
    if (parsed.problems.length > 0) return;
    const changes = envChanges(current, parsed.entries);
    if (Object.keys(changes).length === 0) {
      setNotice('No changes to save');
      return;
    }
    setSaving(true);
    try {
      await onSave(changes);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      {failure ? <Banner variant="error">{failure}</Banner> : null}
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
          value={text}
          aria-invalid={parsed.problems.length > 0 || undefined}
          aria-describedby={`${id}-hint ${id}-problems`}
          onChange={(event) => setText(event.target.value)}
        />
        <p className="field-hint" id={`${id}-hint`}>
          One KEY=value per line. Wrap multiline values in double quotes. Removing a line removes the
          variable.
        </p>
        <ul className="env-problems" id={`${id}-problems`} aria-live="polite">
          {parsed.problems.map((problem) => (
            <li key={problem} className="field-error">
              {problem}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <ScopedButton type="submit" denial={denial} loading={saving} disabled={parsed.problems.length > 0}>
          Save Configuration
        </ScopedButton>
      </div>
    </form>
  );
}
